import { useEffect, type ReactNode } from 'react'
import { Link, useSearchParams } from 'react-router'
import { CircleAlert, CircleCheck, Clock } from 'lucide-react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { buttonClasses } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api'
import { useLiveEvents } from '@/lib/liveEvents'
import { queryKeys } from '@/lib/queryKeys'
import { useAuth } from '@/lib/session/AuthProvider'
import { usePageTitle } from '@/lib/usePageTitle'
import { syncSubscription, type SyncResponse } from '../api'
import { subscriptionLiveEvents } from '../liveEvents'
import { formatDate, planName } from '../format'

/** While a boleto (or any delayed method) is being confirmed the page asks again this often, besides the live event. */
export const PENDING_POLL_MS = 5_000

/** Back from a checkout that is not premium yet (a boleto being paid): keep asking. */
function isPending(r: SyncResponse | undefined, sessionId: string | null): boolean {
  return !!r && !!sessionId && !r.is_premium && r.checkout_status !== 'expired'
}

function Shell({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-background px-6 text-center">
      {icon}
      <h1 className="text-2xl font-bold">{title}</h1>
      {children}
    </main>
  )
}

/**
 * Stripe's success_url: syncs the subscription with Stripe on arrival
 * (POST /api/billing/sync with the Checkout Session id), so the plan shows at
 * once without waiting for the webhook. A boleto still being paid is said so
 * and the page follows it live (subscription.changed, and a poll).
 */
export default function SubscriptionSuccessPage() {
  usePageTitle('Assinatura')
  const [params] = useSearchParams()
  const sessionId = params.get('session_id')
  const { isAuthenticated, loading } = useAuth()
  const client = useQueryClient()
  // Outside the layout: this page opens the live stream itself.
  useLiveEvents(isAuthenticated, subscriptionLiveEvents)

  const sync = useQuery({
    queryKey: [...queryKeys.subscription, 'sync', sessionId],
    queryFn: () => syncSubscription(sessionId),
    enabled: isAuthenticated,
    staleTime: 0,
    retry: (n, err) => n < 2 && !(err instanceof ApiError && err.status >= 400 && err.status < 500),
    refetchInterval: (q) => (isPending(q.state.data, sessionId) ? PENDING_POLL_MS : false),
  })

  // The answer is the subscription view: the menu and the badges follow at once.
  useEffect(() => {
    if (sync.data) client.setQueryData(queryKeys.subscription, sync.data)
  }, [sync.data, client])

  if (!loading && !isAuthenticated) {
    return (
      <Shell icon={<CircleCheck aria-hidden="true" className="h-16 w-16 text-primary" />} title="Obrigado por assinar o VetClube!">
        <p className="max-w-md text-muted-foreground">Entre na sua conta para ver a sua assinatura.</p>
        <Link to="/login" className={buttonClasses('primary')}>
          Entrar
        </Link>
      </Shell>
    )
  }

  if (loading || sync.isPending) {
    return (
      <Shell icon={<Spinner label="Confirmando a sua assinatura..." />} title="Confirmando a sua assinatura">
        <p className="max-w-md text-muted-foreground">Estamos conferindo o seu pagamento com a Stripe.</p>
      </Shell>
    )
  }

  if (sync.isError) {
    return (
      <Shell icon={<CircleAlert aria-hidden="true" className="h-16 w-16 text-destructive" />} title="Não foi possível confirmar agora">
        <p role="alert" className="max-w-md text-muted-foreground">
          {sync.error instanceof ApiError ? sync.error.message : 'Erro ao processar requisição. Tente novamente.'} Se o pagamento foi feito, a assinatura aparece em instantes.
        </p>
        <div className="flex flex-wrap justify-center gap-2">
          <button type="button" className={buttonClasses('primary')} onClick={() => void sync.refetch()}>
            Tentar Novamente
          </button>
          <Link to="/subscription" className={buttonClasses('outline')}>
            Minha Assinatura
          </Link>
        </div>
      </Shell>
    )
  }

  const r = sync.data
  const name = planName(r.plan, r.subscription_tier)
  if (r.is_premium) {
    return (
      <Shell icon={<CircleCheck aria-hidden="true" className="h-16 w-16 text-primary" />} title="Obrigado por assinar o VetClube!">
        <p role="status" className="max-w-md text-lg font-semibold">
          Você agora é {name}.
        </p>
        {r.current_period_end && <p className="text-muted-foreground">Acesso garantido até {formatDate(r.current_period_end)}, renovado automaticamente.</p>}
        <div className="flex flex-wrap justify-center gap-2">
          <Link to="/" className={buttonClasses('primary')}>
            Ir para o início
          </Link>
          <Link to="/subscription" className={buttonClasses('outline')}>
            Minha Assinatura
          </Link>
        </div>
      </Shell>
    )
  }

  if (r.checkout_status === 'expired') {
    return (
      <Shell icon={<CircleAlert aria-hidden="true" className="h-16 w-16 text-destructive" />} title="O pagamento não foi concluído">
        <p className="max-w-md text-muted-foreground">A sessão de pagamento expirou antes da confirmação. Nenhuma cobrança foi feita.</p>
        <Link to="/pricing" className={buttonClasses('primary')}>
          Ver Planos
        </Link>
      </Shell>
    )
  }

  return (
    <Shell icon={<Clock aria-hidden="true" className="h-16 w-16 text-amber-600" />} title="Pagamento em processamento">
      <p role="status" aria-live="polite" className="max-w-md text-muted-foreground">
        Recebemos o seu pedido do {name}. O pagamento ainda está sendo processado: boletos levam até 3 dias úteis para compensar. Esta página se atualiza sozinha
        assim que a Stripe confirmar.
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        <Link to="/payment-status" className={buttonClasses('primary')}>
          Status do pagamento
        </Link>
        <Link to="/" className={buttonClasses('outline')}>
          Ir para o início
        </Link>
      </div>
    </Shell>
  )
}
