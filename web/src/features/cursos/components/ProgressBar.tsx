import { cn } from '@/lib/cn'
import { clampPercent } from '../format'

/** A labelled progress bar with its percentage in words ('35% concluído'). */
export function ProgressBar({ value, label = 'Progresso no curso', className, showText = true }: { value: number; label?: string; className?: string; showText?: boolean }) {
  const pct = clampPercent(value)
  return (
    <div className={cn('flex flex-col gap-1', className)}>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={pct}
        aria-valuetext={`${pct}% concluído`}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className={cn('h-full rounded-full transition-[width]', pct === 100 ? 'bg-green-600' : 'bg-primary')} style={{ width: `${pct}%` }} />
      </div>
      {showText && <span className="text-xs font-medium text-muted-foreground">{pct}% concluído</span>}
    </div>
  )
}
