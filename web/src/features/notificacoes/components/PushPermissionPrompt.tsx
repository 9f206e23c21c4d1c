import { useEffect, useState } from 'react'
import { createPortal } from 'react-dom'
import { Bell, X } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { toast } from '@/components/ui/toast'
import { PUSH_MESSAGES, PushError } from '../push/messages'
import { subscribePush, usePushState, type PushState } from '../push/pushState'

/** The prompt waits 3 s after the app opens. */
export const PROMPT_DELAY_MS = 3000
export const PROMPT_DISMISSED_KEY = 'push-prompt-dismissed'
export const PROMPT_REGION_NAME = 'Ativar push neste aparelho'
/** The element at the top of the signed-in layout's content that holds the card on phones. */
export const PROMPT_SLOT_ID = 'push-prompt-slot'

/**
 * The sign-in session this browser holds, as a short digest of its CSRF
 * cookie (the server binds that token to the session): the same in every tab,
 * new after the next sign-in. Without the cookie, the tab's own marker.
 */
function sessionMark(): string {
  const csrf = /(?:^|;\s*)vc_csrf=([^;]*)/.exec(typeof document === 'undefined' ? '' : document.cookie)?.[1]
  if (!csrf) return 'tab'
  let hash = 0x811c9dc5
  for (let i = 0; i < csrf.length; i++) hash = Math.imul(hash ^ csrf.charCodeAt(i), 0x01000193)
  return (hash >>> 0).toString(36)
}

/**
 * Dismissal lasts for the sign-in session: kept in localStorage with the
 * session's mark, so a new tab of the same session does not ask again, and
 * the next sign-in may. sessionStorage keeps it where localStorage is refused.
 */
function dismissedThisSession(): boolean {
  try {
    if (localStorage.getItem(PROMPT_DISMISSED_KEY) === sessionMark()) return true
  } catch {
    // Storage disabled: fall through to this tab's flag.
  }
  try {
    return sessionStorage.getItem(PROMPT_DISMISSED_KEY) === '1'
  } catch {
    return false
  }
}

function rememberDismissal() {
  try {
    localStorage.setItem(PROMPT_DISMISSED_KEY, sessionMark())
  } catch {
    // Storage disabled: this tab's flag below.
  }
  try {
    sessionStorage.setItem(PROMPT_DISMISSED_KEY, '1')
  } catch {
    // Storage disabled: hidden until the next load only.
  }
}

/** Shown to a supported browser, permission 'default', not subscribed, not dismissed this session. */
export function shouldOfferPush(push: PushState, dismissed: boolean): boolean {
  return push.checked && push.supported && push.permission === 'default' && !push.endpoint && !dismissed
}

/** The floating card (bottom right) asking a signed-in user to allow push notifications. */
export function PushPermissionPrompt() {
  const push = usePushState()
  const [elapsed, setElapsed] = useState(false)
  const [dismissed, setDismissed] = useState(dismissedThisSession)
  const [busy, setBusy] = useState(false)
  useEffect(() => {
    const timer = setTimeout(() => setElapsed(true), PROMPT_DELAY_MS)
    return () => clearTimeout(timer)
  }, [])

  if (!elapsed || (!busy && !shouldOfferPush(push, dismissed))) return null

  const dismiss = () => {
    rememberDismissal()
    setDismissed(true)
  }
  const allow = async () => {
    setBusy(true)
    try {
      await subscribePush()
      toast.success(PUSH_MESSAGES.enabled)
    } catch (err) {
      toast.error(err instanceof PushError ? err.message : PUSH_MESSAGES.enableFailed)
    } finally {
      setBusy(false)
    }
  }
  // It never covers an action: on phones it sits in the page's flow at the top
  // of the content (the layout's slot); from 1024 px it floats bottom right
  // and the page keeps that much room free at its end (data-push-prompt), so
  // whatever is under it scrolls clear. Portalled out of the top bar, whose
  // backdrop blur would make 'fixed' relative to the bar.
  const slot = document.getElementById(PROMPT_SLOT_ID)
  return createPortal(
    <section
      // Its own name, not the heading's: the bell's panel is the one region named 'Notificações'.
      aria-label={PROMPT_REGION_NAME}
      data-push-prompt=""
      className={
        slot
          ? 'relative mb-4 w-full rounded-2xl border border-border bg-card p-4 text-card-foreground shadow-sm lg:fixed lg:bottom-6 lg:right-6 lg:z-[70] lg:mb-0 lg:w-auto lg:max-w-sm lg:shadow-xl'
          : 'fixed bottom-20 right-3 z-[70] w-[calc(100%-1.5rem)] max-w-sm rounded-2xl border border-border bg-card p-4 text-card-foreground shadow-xl lg:bottom-6 lg:right-6'
      }
    >
      <div className="flex items-start gap-3">
        <span className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-accent text-accent-foreground">
          <Bell aria-hidden="true" className="h-5 w-5" />
        </span>
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <h2 className="font-semibold">
            Notificações
          </h2>
          <p className="text-sm text-muted-foreground">Receba notificações sobre novos desafios, conexões e atualizações importantes</p>
        </div>
        <button type="button" onClick={dismiss} aria-label="Fechar" className="rounded-md p-1 text-muted-foreground hover:bg-muted">
          <X aria-hidden="true" className="h-5 w-5" />
        </button>
      </div>
      <div className="mt-3 flex gap-2">
        <Button size="sm" className="flex-1" loading={busy} onClick={() => void allow()}>
          {busy ? 'Ativando...' : 'Permitir'}
        </Button>
        <Button size="sm" variant="outline" className="flex-1" disabled={busy} onClick={dismiss}>
          Agora não
        </Button>
      </div>
    </section>,
    slot ?? document.body,
  )
}
