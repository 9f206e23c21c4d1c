import { Link } from 'react-router'
import { Button } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { usePayments } from '../api'
import { formatDateTime, formatMoney, paymentInWords, paymentKindInWords } from '../format'

/** /payment-monitoring: every payment event of the member, newest first: invoices, attempts, failures, refunds, disputes. */
export default function PaymentMonitoringPage() {
  usePageTitle('Monitoramento de Pagamentos')
  const payments = usePayments()
  const list = payments.data?.payments ?? []
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 py-4">
      <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Monitoramento de Pagamentos</h1>
      {payments.isPending ? (
        <Spinner label="Carregando pagamentos..." />
      ) : payments.isError ? (
        <div role="alert" className="flex flex-col items-start gap-3">
          <p>Não foi possível carregar os seus pagamentos.</p>
          <Button variant="outline" onClick={() => void payments.refetch()}>
            Tentar Novamente
          </Button>
        </div>
      ) : list.length === 0 ? (
        <p className="text-muted-foreground">
          Nenhum pagamento registrado ainda. <Link to="/pricing" className="font-medium text-primary hover:underline">Ver Planos</Link>
        </p>
      ) : (
        <div className="relative overflow-x-auto rounded-2xl border border-border bg-card">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Histórico de pagamentos, do mais recente ao mais antigo</caption>
            <thead className="border-b border-border text-muted-foreground">
              <tr>
                <th scope="col" className="p-3 font-medium">Data</th>
                <th scope="col" className="p-3 font-medium">Tipo</th>
                <th scope="col" className="p-3 font-medium">Valor</th>
                <th scope="col" className="p-3 font-medium">Situação</th>
                <th scope="col" className="p-3 font-medium">Detalhes</th>
              </tr>
            </thead>
            <tbody>
              {list.map((p) => (
                <tr key={`${p.kind}-${p.id}`} className="border-b border-border last:border-0">
                  <td className="whitespace-nowrap p-3">{formatDateTime(p.at)}</td>
                  <td className="p-3">{paymentKindInWords(p.kind)}</td>
                  <td className="whitespace-nowrap p-3">{p.kind === 'refund' ? `− ${formatMoney(p.amount_cents)}` : formatMoney(p.amount_cents)}</td>
                  <td className="p-3">{paymentInWords(p).title}</td>
                  <td className="p-3">
                    {p.description}
                    {p.hosted_url && (
                      <>
                        {p.description ? ' · ' : ''}
                        <a href={p.hosted_url} target="_blank" rel="noopener noreferrer" className="font-medium text-primary hover:underline">
                          Ver fatura
                        </a>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Link to="/subscription" className="text-sm font-medium text-primary hover:underline">
        Voltar para Minha Assinatura
      </Link>
    </div>
  )
}
