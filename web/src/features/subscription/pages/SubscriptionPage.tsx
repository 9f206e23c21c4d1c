import { Link } from 'react-router'
import { CreditCard, Crown, FileText } from 'lucide-react'
import { buttonClasses, Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { cn } from '@/lib/cn'
import { usePageTitle } from '@/lib/usePageTitle'
import { useSubscriptionDetails, type SubscriptionDetails } from '../api'
import { PortalButton } from '../components/PortalButton'
import { formatDate, formatMoney, hasBillingSubscription, invoiceStatusInWords, paymentMethodInWords, planName, statusInWords, type StatusTone } from '../format'

const TONE: Record<StatusTone, string> = {
  ok: 'text-green-800 dark:text-green-300',
  pending: 'text-amber-800 dark:text-amber-300',
  warning: 'text-amber-800 dark:text-amber-300',
  ended: 'text-destructive',
  none: 'text-muted-foreground',
}

function Overview({ d }: { d: SubscriptionDetails }) {
  const v = d.view
  const status = statusInWords(v)
  const managed = hasBillingSubscription(v)
  const ending = v.cancel_at_period_end || v.billing_status === 'canceled'
  return (
    <Card className="flex flex-col gap-4 p-5">
      <h2 className="flex items-center gap-2 text-lg font-semibold">
        <Crown aria-hidden="true" className="h-5 w-5 text-amber-600" />
        {v.is_premium || managed ? planName(d.plan ?? v.plan, v.subscription_tier) : 'Sem assinatura Premium'}
      </h2>
      <dl className="grid gap-3 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-muted-foreground">Situação</dt>
          <dd className={cn('font-semibold', TONE[status.tone])}>{status.tone === 'none' && d.status_text ? d.status_text : status.text}</dd>
        </div>
        <div>
          <dt className="text-sm text-muted-foreground">Próxima cobrança</dt>
          <dd className="font-semibold">
            {d.next_charge && !ending ? `${formatMoney(d.next_charge.amount_cents)} em ${formatDate(d.next_charge.at)}` : 'Nenhuma cobrança prevista'}
          </dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-sm text-muted-foreground">Forma de pagamento</dt>
          <dd className="flex items-center gap-2 font-semibold">
            <CreditCard aria-hidden="true" className="h-4 w-4" />
            {paymentMethodInWords(d.payment_method)}
          </dd>
        </div>
      </dl>
      {managed ? (
        <div className="flex flex-col gap-2">
          <div className="flex flex-wrap gap-2">
            <PortalButton>Gerenciar assinatura</PortalButton>
            {ending ? <PortalButton variant="outline">Reativar assinatura</PortalButton> : <PortalButton variant="outline">Cancelar assinatura</PortalButton>}
          </div>
          <p className="text-sm text-muted-foreground">
            {ending
              ? 'A reativação é feita no gerenciamento da assinatura, pela Stripe.'
              : 'A troca de cartão ou de plano e o cancelamento são feitos no gerenciamento da assinatura, pela Stripe. Ao cancelar, o acesso segue até o fim do período pago.'}
          </p>
        </div>
      ) : (
        <Link to="/pricing" className={buttonClasses('primary', 'md', 'self-start')}>
          Ver Planos
        </Link>
      )}
    </Card>
  )
}

function Invoices({ d }: { d: SubscriptionDetails }) {
  return (
    <section aria-labelledby="invoices-title" className="flex flex-col gap-3">
      <h2 id="invoices-title" className="text-lg font-semibold">
        Faturas
      </h2>
      {d.invoices.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nenhuma fatura ainda.</p>
      ) : (
        <div className="relative overflow-x-auto rounded-2xl border border-border bg-card">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-border text-muted-foreground">
              <tr>
                <th scope="col" className="p-3 font-medium">
                  Data
                </th>
                <th scope="col" className="hidden p-3 font-medium sm:table-cell">
                  Número
                </th>
                <th scope="col" className="p-3 font-medium">
                  Valor
                </th>
                <th scope="col" className="p-3 font-medium">
                  Situação
                </th>
                <th scope="col" className="p-3 font-medium">
                  <span className="sr-only">Documentos</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {d.invoices.map((inv) => (
                <tr key={inv.id} className="border-b border-border last:border-0">
                  <td className="p-3">{formatDate(inv.created)}</td>
                  <td className="hidden p-3 sm:table-cell">{inv.number ?? '—'}</td>
                  <td className="p-3">{formatMoney(inv.amount_cents)}</td>
                  <td className="p-3">{invoiceStatusInWords(inv.status)}</td>
                  <td className="p-3">
                    <div className="flex gap-3">
                      {inv.pdf_url && (
                        <a href={inv.pdf_url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 font-medium text-primary hover:underline">
                          <FileText aria-hidden="true" className="h-4 w-4" />
                          PDF<span className="sr-only"> da fatura {inv.number ?? formatDate(inv.created)}</span>
                        </a>
                      )}
                      {inv.hosted_url && inv.status === 'open' && (
                        <a href={inv.hosted_url} target="_blank" rel="noopener noreferrer" className="font-medium text-primary hover:underline">
                          Pagar<span className="sr-only"> a fatura {inv.number ?? formatDate(inv.created)}</span>
                        </a>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}

/** /subscription and /subscription-management: the plan, its state in words, the next charge, the card and the invoices. */
export default function SubscriptionPage() {
  usePageTitle('Minha Assinatura')
  const details = useSubscriptionDetails()
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 py-4">
      <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Minha Assinatura</h1>
      {details.isPending ? (
        <Spinner label="Carregando assinatura..." />
      ) : details.isError ? (
        <div role="alert" className="flex flex-col items-start gap-3">
          <p>Não foi possível carregar a sua assinatura.</p>
          <Button variant="outline" onClick={() => void details.refetch()}>
            Tentar Novamente
          </Button>
        </div>
      ) : (
        <>
          <Overview d={details.data} />
          <Invoices d={details.data} />
          <nav aria-label="Pagamentos" className="flex flex-wrap gap-4 text-sm">
            <Link to="/payment-status" className="font-medium text-primary hover:underline">
              Status do pagamento
            </Link>
            <Link to="/payment-monitoring" className="font-medium text-primary hover:underline">
              Histórico de pagamentos
            </Link>
          </nav>
        </>
      )}
    </div>
  )
}
