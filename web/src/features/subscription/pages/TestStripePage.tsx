import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { CircleCheck, CircleX, ShieldAlert } from 'lucide-react'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { hasRole, useAuth } from '@/lib/session/AuthProvider'
import { usePageTitle } from '@/lib/usePageTitle'
import { useDiagnostics, type Diagnostics } from '../api'
import { eventStatusInWords, formatDateTime } from '../format'

const MODE: Record<Diagnostics['mode'], string> = { fake: 'Simulado (Stripe local)', test: 'Modo de teste da Stripe', live: 'Produção' }

function Yes({ ok, children }: { ok: boolean; children: ReactNode }) {
  return (
    <li className="flex items-center gap-2">
      {ok ? <CircleCheck aria-hidden="true" className="h-5 w-5 text-green-700" /> : <CircleX aria-hidden="true" className="h-5 w-5 text-destructive" />}
      <span>
        {children}: <strong>{ok ? 'sim' : 'não'}</strong>
      </span>
    </li>
  )
}

function Forbidden() {
  return (
    <Card role="alert" className="flex flex-col items-center gap-4 p-8 text-center md:p-12">
      <ShieldAlert aria-hidden="true" className="h-10 w-10 text-destructive" />
      <p className="text-lg font-semibold">Acesso restrito</p>
      <p className="max-w-md text-sm text-muted-foreground">Esta página é exclusiva para administradores do VetClube.</p>
      <Link to="/" className={buttonClasses('primary')}>
        Voltar ao início
      </Link>
    </Card>
  )
}

/** /test-stripe: the billing configuration and the webhook's last events, for super admins. */
export default function TestStripePage() {
  usePageTitle('Teste de Pagamento')
  const { user } = useAuth()
  const allowed = hasRole(user, 'super_admin')
  const diag = useDiagnostics(allowed)
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6 py-4">
      <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Teste de Pagamento</h1>
      {!allowed || (diag.error && 'status' in diag.error && diag.error.status === 403) ? (
        <Forbidden />
      ) : diag.isPending ? (
        <Spinner label="Verificando a Stripe..." />
      ) : diag.isError ? (
        <div role="alert" className="flex flex-col items-start gap-3">
          <p>Não foi possível ler o diagnóstico.</p>
          <Button variant="outline" onClick={() => void diag.refetch()}>
            Tentar Novamente
          </Button>
        </div>
      ) : (
        <>
          <Card className="flex flex-col gap-3 p-5">
            <h2 className="text-lg font-semibold">Configuração</h2>
            <p>
              Modo: <strong>{MODE[diag.data.mode] ?? diag.data.mode}</strong>
            </p>
            <ul className="flex flex-col gap-1">
              <Yes ok={diag.data.configured.secret_key}>Chave secreta configurada</Yes>
              <Yes ok={diag.data.configured.webhook_secret}>Segredo do webhook configurado</Yes>
              <Yes ok={diag.data.configured.price_monthly}>Preço mensal configurado</Yes>
              <Yes ok={diag.data.configured.price_yearly}>Preço anual configurado</Yes>
              <Yes ok={diag.data.api_reachable}>API da Stripe acessível</Yes>
            </ul>
            {diag.data.api_latency_ms != null && <p className="text-sm text-muted-foreground">Latência da API: {diag.data.api_latency_ms} ms</p>}
            {diag.data.api_error && (
              <p role="alert" className="text-sm text-destructive">
                Erro da API: {diag.data.api_error}
              </p>
            )}
            {diag.data.api_version && (
              <p className="text-sm">
                Versão da API (use-a ao criar o endpoint do webhook): <code>{diag.data.api_version}</code>
              </p>
            )}
            <p className="break-all text-sm">
              Endpoint do webhook: <code>{diag.data.webhook_url}</code>
            </p>
            <Button variant="outline" className="self-start" loading={diag.isFetching} onClick={() => void diag.refetch()}>
              Verificar novamente
            </Button>
          </Card>
          <section aria-labelledby="last-events" className="flex flex-col gap-3">
            <h2 id="last-events" className="text-lg font-semibold">
              Últimos eventos do webhook
            </h2>
            {diag.data.last_events.length === 0 ? (
              <p className="text-muted-foreground">Nenhum evento recebido ainda.</p>
            ) : (
              <div className="relative overflow-x-auto rounded-2xl border border-border bg-card">
                <table className="w-full text-left text-sm">
                  <thead className="border-b border-border text-muted-foreground">
                    <tr>
                      <th scope="col" className="p-3 font-medium">Recebido em</th>
                      <th scope="col" className="p-3 font-medium">Tipo</th>
                      <th scope="col" className="p-3 font-medium">Situação</th>
                      <th scope="col" className="p-3 font-medium">Atraso</th>
                    </tr>
                  </thead>
                  <tbody>
                    {diag.data.last_events.map((e) => (
                      <tr key={e.id} className="border-b border-border last:border-0">
                        <td className="whitespace-nowrap p-3">{formatDateTime(e.received_at)}</td>
                        <td className="p-3 font-mono text-xs">{e.type}</td>
                        <td className="p-3">{eventStatusInWords(e.status)}</td>
                        <td className="whitespace-nowrap p-3">{e.lag_ms == null ? '—' : `${(e.lag_ms / 1000).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} s`}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </section>
        </>
      )}
    </div>
  )
}
