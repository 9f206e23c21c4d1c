import { cn } from '@/lib/cn'

/** Spinning ring with an accessible label. */
export function Spinner({ label = 'Carregando...', className }: { label?: string; className?: string }) {
  return (
    <span role="status" className={cn('inline-flex items-center gap-2', className)}>
      <span aria-hidden="true" className="h-6 w-6 animate-spin rounded-full border-2 border-primary border-t-transparent" />
      <span className="sr-only">{label}</span>
    </span>
  )
}

/** Full-screen centred loader with visible text (the guard's 'Verificando autenticação...'). */
export function FullScreenLoader({ label = 'Carregando...' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-background">
      <span aria-hidden="true" className="h-10 w-10 animate-spin rounded-full border-4 border-primary border-t-transparent" />
      <p className="text-sm text-muted-foreground">{label}</p>
    </div>
  )
}
