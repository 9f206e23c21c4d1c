import { CircleAlert } from 'lucide-react'
import { useSubscription } from '../api'
import { formatDate } from '../format'
import { PortalButton } from './PortalButton'

/**
 * On every signed-in page while the latest invoice failed: the member keeps
 * access until the grace ends and updates the card in the portal. It goes
 * away on its own when invoice.paid arrives (subscription.changed).
 */
export function DunningBanner() {
  const sub = useSubscription().data
  if (!sub?.payment_failed) return null
  return (
    <section
      role="alert"
      aria-labelledby="dunning-title"
      className="mb-4 flex flex-col gap-3 rounded-2xl border border-amber-400 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50"
    >
      <CircleAlert aria-hidden="true" className="h-6 w-6 shrink-0" />
      <div className="flex-1">
        <h2 id="dunning-title" className="font-semibold">
          Não conseguimos cobrar a sua assinatura
        </h2>
        <p className="text-sm">
          Atualize a sua forma de pagamento para continuar com o Premium
          {sub.grace_until ? <>: acesso até {formatDate(sub.grace_until)}.</> : '.'}
        </p>
      </div>
      <PortalButton size="sm">Atualizar pagamento</PortalButton>
    </section>
  )
}
