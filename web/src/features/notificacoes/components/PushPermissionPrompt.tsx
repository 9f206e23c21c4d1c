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

function dismissedThisSession(): boolean {
  try {
    return sessionStorage.getItem(PROMPT_DISMISSED_KEY) === '1'
  } catch {
    return false
  }
}

function rememberDismissal() {
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
  // Portalled to <body>: the top bar's backdrop blur would make 'fixed' relative to the bar.
  return createPortal(
    <section
      // Its own name, not the heading's: the bell's panel is the one region named 'Notificações'.
      aria-label={PROMPT_REGION_NAME}
      className="fixed bottom-20 right-3 z-[70] w-[calc(100%-1.5rem)] max-w-sm rounded-2xl border border-border bg-card p-4 text-card-foreground shadow-xl lg:bottom-6 lg:right-6"
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
    document.body,
  )
}
