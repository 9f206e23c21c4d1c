import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import { CircleAlert, CircleCheck, X } from 'lucide-react'
import { cn } from '@/lib/cn'
import { dismissToast, useCurrentToast } from './toast'

const TOASTER_ATTR = 'data-toaster'

function supportsPopover(el: HTMLElement): boolean {
  return typeof el.showPopover === 'function' && typeof el.hidePopover === 'function'
}

/**
 * Moves the toast region to the top of the browser's top layer. A modal
 * <dialog> sits in the top layer, above every z-index; the toast region is a
 * manual popover, so showing it again after a dialog opened puts it above that
 * dialog. Dialogs call this right after `showModal()`.
 */
export function raiseToaster(): void {
  if (typeof document === 'undefined') return
  const el = document.querySelector<HTMLElement>(`[${TOASTER_ATTR}]`)
  if (!el || !supportsPopover(el)) return
  try {
    // Set here, not in the markup: where popovers are unknown a closed
    // [popover] could be hidden, and the plain z-index stacking must stay.
    if (!el.hasAttribute('popover')) el.setAttribute('popover', 'manual')
    if (el.matches(':popover-open')) el.hidePopover()
    el.showPopover()
  } catch {
    el.removeAttribute('popover')
  }
}

/**
 * Renders the single current toast in a polite live region (bottom centre,
 * above the bottom nav). The region lives outside every dialog, so closing a
 * dialog never takes the toast with it, and it is raised above any open
 * modal dialog whenever a toast appears.
 */
export function Toaster() {
  const item = useCurrentToast()
  // Shown on mount (a closed popover is display: none, and a live region must
  // exist before its words change), then raised again with every new toast.
  useLayoutEffect(() => {
    raiseToaster()
  }, [item])
  return (
    <div
      {...{ [TOASTER_ATTR]: '' }}
      aria-live="polite"
      aria-atomic="true"
      className="pointer-events-none fixed inset-x-0 top-auto bottom-20 z-[100] m-0 flex h-auto w-auto justify-center overflow-visible border-0 bg-transparent p-0 px-4 text-inherit lg:bottom-6 lg:justify-end"
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

/**
 * While a modal dialog is open the rest of the page is inert, its live region
 * included: screen readers hear nothing from it. Each modal dialog carries this
 * silent copy of the current toast's words so they are still read aloud; the
 * visible toast stays the page's (above the dialog, and still there after the
 * dialog closes). It speaks only while its dialog is modal.
 */
export function DialogToastAnnouncer() {
  const item = useCurrentToast()
  const ref = useRef<HTMLDivElement>(null)
  const [modal, setModal] = useState(false)
  useEffect(() => {
    const dialog = ref.current?.closest('dialog')
    try {
      setModal(Boolean(dialog?.matches(':modal')))
    } catch {
      setModal(false)
    }
  }, [item])
  const words = modal && item ? [item.title, item.description].filter(Boolean).join('. ') : ''
  return (
    <div ref={ref} aria-live={item?.variant === 'error' ? 'assertive' : 'polite'} aria-atomic="true" className="sr-only">
      {words}
    </div>
  )
}
