import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { PawPrint } from 'lucide-react'
import { usePageTitle } from '@/lib/usePageTitle'

/** The standalone frame of the auth screens (no app layout): logo, heading, one card. */
export function AuthShell({
  title,
  description,
  children,
  footer,
}: {
  title: string
  description?: ReactNode
  children: ReactNode
  footer?: ReactNode
}) {
  usePageTitle(title)
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-background px-4 py-10">
      <Link
        to="/landing"
        className="mb-6 flex items-center gap-2 rounded-md text-xl font-bold text-primary focus-visible:outline-2 focus-visible:outline-ring"
      >
        <PawPrint aria-hidden="true" className="h-7 w-7" />
        VetClube
      </Link>
      <div className="w-full max-w-md rounded-2xl border border-border bg-card p-6 text-card-foreground shadow-sm sm:p-8">
        <div className="mb-6 flex flex-col gap-1 text-center">
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          {description && <p className="text-sm text-muted-foreground">{description}</p>}
        </div>
        {children}
      </div>
      {footer && <div className="mt-6 text-center text-sm text-muted-foreground">{footer}</div>}
    </main>
  )
}

/** A form-level message box: role=alert for errors so screen readers announce it at once. */
export function FormMessage({ kind, children }: { kind: 'error' | 'success'; children: ReactNode }) {
  return (
    <div
      role={kind === 'error' ? 'alert' : 'status'}
      className={
        kind === 'error'
          ? 'rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100'
          : 'rounded-lg border border-green-300 bg-green-50 p-3 text-sm font-medium text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100'
      }
    >
      {children}
    </div>
  )
}
