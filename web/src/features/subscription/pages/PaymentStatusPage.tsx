import type { ComponentType } from 'react'
import { Link } from 'react-router'
import { CircleAlert, CircleCheck, CircleX, Clock, Info } from 'lucide-react'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { usePayments } from '../api'
import { PortalButton } from '../components/PortalButton'
import { formatDateTime, formatMoney, paymentInWords, paymentKindInWords, type StatusTone } from '../format'

const ICON: Record<StatusTone, ComponentType<{ className?: string; 'aria-hidden'?: boolean }>> = {
  ok: CircleCheck,
  pending: Clock,
  warning: CircleAlert,
  ended: CircleX,
  none: Info,
}

/** /payment-status: the latest payment in words, and what to do next. */
export default function PaymentStatusPage() {
  usePageTitle('Status do Pagamento')
  const payments = usePayments()
  const latest = payments.data?.payments[0]
  const words = latest ? paymentInWords(latest) : null
  const Icon = words ? ICON[words.tone] : Info
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 py-4">
      <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Status do Pagamento</h1>
      {payments.isPending ? (
        <Spinner label="Carregando pagamentos..." />
      ) : payments.isError ? (
        <div role="alert" className="flex flex-col items-start gap-3">
          <p>Não foi possível carregar os seus pagamentos.</p>
          <Button variant="outline" onClick={() => void payments.refetch()}>
            Tentar Novamente
          </Button>
        </div>
      ) : !latest || !words ? (
        <Card className="flex flex-col items-start gap-3 p-5">
          <p className="font-semibold">Nenhum pagamento registrado ainda.</p>
          <p className="text-sm text-muted-foreground">Quando você assinar o Premium, a situação do pagamento aparece aqui.</p>
          <Link to="/pricing" className={buttonClasses('primary')}>
            Ver Planos
          </Link>
        </Card>
      ) : (
        <Card className="flex flex-col gap-4 p-5">
          <div className="flex items-start gap-3">
            <Icon aria-hidden={true} className="mt-1 h-6 w-6 shrink-0" />
            <div>
              <h2 className="text-lg font-semibold">{words.title}</h2>
              <p className="text-sm text-muted-foreground">
                {paymentKindInWords(latest.kind)} de {formatMoney(latest.amount_cents)} em {formatDateTime(latest.at)}
                {latest.description && !latest.description.startsWith(paymentKindInWords(latest.kind)) ? ` — ${latest.description}` : ''}
              </p>
            </div>
          </div>
          <section aria-labelledby="next-step">
            <h3 id="next-step" className="text-sm font-semibold">
              O que fazer agora
            </h3>
            <p>{words.next}</p>
          </section>
          <div className="flex flex-wrap gap-2">
            {latest.hosted_url && (words.tone === 'warning' || words.tone === 'pending') && (
              <a href={latest.hosted_url} target="_blank" rel="noopener noreferrer" className={buttonClasses('primary')}>
                Abrir fatura
              </a>
            )}
            {words.tone === 'warning' && <PortalButton variant="outline">Atualizar pagamento</PortalButton>}
            <Link to="/payment-monitoring" className={buttonClasses('ghost')}>
              Ver histórico
            </Link>
          </div>
        </Card>
      )}
    </div>
  )
}
