import { useState } from 'react'
import { useNavigate } from 'react-router'
import { Check } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { toast } from '@/components/ui/toast'
import { useSubscription } from './api'
import { PREMIUM_BENEFITS as BENEFITS } from './benefits'
import { checkoutFailure, openCheckoutInNewTab } from './checkout'

const SHOWN_KEY = 'vc_trial_expired_dialog_shown'

function alreadyShown(): boolean {
  try {
    return sessionStorage.getItem(SHOWN_KEY) === '1'
  } catch {
    return false
  }
}

function markShown(): void {
  try {
    sessionStorage.setItem(SHOWN_KEY, '1')
  } catch {
    // Private mode: the dialog may show again, which is harmless.
  }
}


/** Shown at most once per browser session, when the trial has expired and the user is not premium. */
export function TrialExpiredDialog() {
  const navigate = useNavigate()
  const [dismissed, setDismissed] = useState(alreadyShown)
  const { data } = useSubscription()
  const open = !dismissed && data?.trial_expired === true && data.is_premium !== true
  if (open) markShown()
  const close = () => setDismissed(true)

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && close()}
      title="Trial Premium Expirado"
      description="Seu período de teste terminou. Assine o Premium para continuar com:"
      footer={
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="ghost" onClick={close}>
            Depois
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              close()
              navigate('/pricing')
            }}
          >
            Ver Planos
          </Button>
          <Button
            onClick={() => {
              close()
              // The monthly checkout, in a new tab opened inside this click.
              openCheckoutInNewTab({ billing_cycle: 'monthly' }).catch((err: unknown) => {
                const failure = checkoutFailure(err)
                toast({
                  title: failure.message,
                  variant: 'error',
                  action: { label: failure.subscribed ? 'Minha Assinatura' : 'Ver Planos', onClick: () => navigate(failure.subscribed ? '/subscription' : '/pricing') },
                })
              })
            }}
          >
            Upgrade Agora
          </Button>
        </div>
      }
    >
      <ul className="flex flex-col gap-2">
        {BENEFITS.map((b) => (
          <li key={b} className="flex items-center gap-2 text-sm">
            <Check aria-hidden="true" className="h-4 w-4 text-primary" />
            {b}
          </li>
        ))}
      </ul>
    </Dialog>
  )
}
