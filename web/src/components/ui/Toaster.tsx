import { CircleAlert, CircleCheck, X } from 'lucide-react'
import { cn } from '@/lib/cn'
import { dismissToast, useCurrentToast } from './toast'

/** Renders the single current toast in a polite live region (bottom centre, above the bottom nav). */
export function Toaster() {
  const item = useCurrentToast()
  return (
    <div
      aria-live="polite"
      aria-atomic="true"
      className="pointer-events-none fixed inset-x-0 bottom-20 z-[100] flex justify-center px-4 lg:bottom-6 lg:justify-end"
    >
      {item && (
        <div
          key={item.id}
          role={item.variant === 'error' ? 'alert' : 'status'}
          className={cn(
            'pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border p-4 shadow-lg',
            item.variant === 'error'
              ? 'border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100'
              : item.variant === 'success'
                ? 'border-green-300 bg-green-50 text-green-900 dark:border-green-800 dark:bg-green-950 dark:text-green-100'
                : 'border-border bg-card text-card-foreground',
          )}
        >
          {item.variant === 'error' && <CircleAlert aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />}
          {item.variant === 'success' && <CircleCheck aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />}
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            {item.title && <p className="text-sm font-semibold">{item.title}</p>}
            {item.description && <p className="text-sm opacity-90">{item.description}</p>}
            {item.action && (
              <button
                type="button"
                onClick={() => {
                  item.action?.onClick()
                  dismissToast(item.id)
                }}
                className="mt-1 self-start rounded-md border border-current px-3 py-1 text-sm font-semibold"
              >
                {item.action.label}
              </button>
            )}
          </div>
          <button type="button" onClick={() => dismissToast(item.id)} aria-label="Fechar notificação" className="rounded p-0.5 opacity-80 hover:opacity-100">
            <X aria-hidden="true" className="h-4 w-4" />
          </button>
        </div>
      )}
    </div>
  )
}
