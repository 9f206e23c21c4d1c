import { useEffect } from 'react'
import { Send } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { toast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api'
import { usePageTitle } from '@/lib/usePageTitle'
import { usePushDeliveries, usePushSubscriptions, useSendTestPush } from '../api'
import { DevicePushControl } from '../components/NotificationSettingsDialog'
import { PUSH_MESSAGES } from '../push/messages'
import { refreshPushState, usePushState } from '../push/pushState'

/** push_deliveries.status (migrations/00072_push.sql) in pt-BR. */
export const DELIVERY_STATUS_LABELS: Record<string, string> = {
  pending: 'Pendente',
  sent: 'Entregue',
  failed: 'Falhou',
  gone: 'Inscrição expirada',
  superseded: 'Substituída',
}

/** The browser's Notification.permission in pt-BR. */
export const PERMISSION_LABELS: Record<NotificationPermission, string> = {
  default: 'ainda não respondida',
  granted: 'permitida',
  denied: 'bloqueada',
}

const dateTime = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'medium' })
const formatDate = (iso: string | null) => (iso ? dateTime.format(new Date(iso)) : '—')

/** The end of an endpoint is what tells two devices apart; the push service's host, which browser. */
function shortEndpoint(endpoint: string): string {
  try {
    const u = new URL(endpoint)
    return `${u.host}/…${endpoint.slice(-12)}`
  } catch {
    return endpoint.slice(-24)
  }
}

/** /push-test: this device's subscription, a test push, and the recent deliveries with their status. */
export default function PushTestPage() {
  usePageTitle('Teste de Notificações')
  const push = usePushState()
  const subscriptions = usePushSubscriptions()
  const deliveries = usePushDeliveries()
  const send = useSendTestPush()
  useEffect(() => void refreshPushState(), [])

  const sendTest = () =>
    send.mutate(undefined, {
      onSuccess: () => toast.success(PUSH_MESSAGES.testSent),
      onError: (err) => toast.error(err instanceof ApiError && err.status === 409 ? PUSH_MESSAGES.testNeedsSubscription : PUSH_MESSAGES.testFailed),
    })

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold">Teste de Notificações</h1>
        <p className="text-muted-foreground">Confira a inscrição deste dispositivo e envie uma notificação de teste.</p>
      </header>

      <Card>
        <CardHeader>
          <CardTitle>Inscrição</CardTitle>
          <CardDescription>Permissão do navegador: {push.supported ? (PERMISSION_LABELS[push.permission] ?? push.permission) : 'indisponível'}</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          <DevicePushControl />
          <div className="flex flex-col gap-1 text-sm">
            <span className="font-medium">Endpoint deste dispositivo</span>
            <code data-testid="push-endpoint" className="break-all rounded-lg bg-muted p-2 text-xs">
              {push.endpoint ?? 'Nenhuma inscrição neste dispositivo'}
            </code>
          </div>
          <Button className="self-start" loading={send.isPending} onClick={sendTest}>
            <Send aria-hidden="true" className="h-4 w-4" />
            Enviar notificação teste
          </Button>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Seus dispositivos</CardTitle>
        </CardHeader>
        <CardContent>
          {subscriptions.data?.length ? (
            <ul className="flex flex-col gap-2 text-sm">
              {subscriptions.data.map((s) => (
                <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-border p-2">
                  <span className="min-w-0 break-all">
                    {shortEndpoint(s.endpoint)}
                    {s.endpoint === push.endpoint && <strong> (este dispositivo)</strong>}
                  </span>
                  <span className={s.is_active ? 'text-green-700 dark:text-green-400' : 'text-muted-foreground'}>{s.is_active ? 'Ativo' : 'Inativo'}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="text-sm text-muted-foreground">{subscriptions.isPending ? 'Carregando...' : 'Nenhum dispositivo inscrito.'}</p>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Entregas recentes</CardTitle>
          <CardDescription>Cada tentativa de envio para os seus dispositivos.</CardDescription>
        </CardHeader>
        <CardContent>
          {deliveries.data?.length ? (
            <div className="overflow-x-auto">
              <table className="w-full text-left text-sm">
                <thead className="text-xs text-muted-foreground">
                  <tr>
                    <th scope="col" className="py-2 pr-3 font-medium">Notificação</th>
                    <th scope="col" className="py-2 pr-3 font-medium">Dispositivo</th>
                    <th scope="col" className="py-2 pr-3 font-medium">Status</th>
                    <th scope="col" className="py-2 pr-3 font-medium">Tentativas</th>
                    <th scope="col" className="py-2 pr-3 font-medium">Criada em</th>
                    <th scope="col" className="py-2 pr-3 font-medium">Entregue em</th>
                    <th scope="col" className="py-2 font-medium">Último erro</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-border">
                  {deliveries.data.map((d) => (
                    <tr key={d.id} data-testid="push-delivery">
                      <td className="py-2 pr-3">{d.title || '—'}</td>
                      <td className="py-2 pr-3 break-all">{shortEndpoint(d.endpoint)}</td>
                      <td className="py-2 pr-3">{DELIVERY_STATUS_LABELS[d.status] ?? d.status}</td>
                      <td className="py-2 pr-3">{d.attempts}</td>
                      <td className="py-2 pr-3 whitespace-nowrap">{formatDate(d.created_at)}</td>
                      <td className="py-2 pr-3 whitespace-nowrap">{formatDate(d.delivered_at)}</td>
                      <td className="py-2 break-all text-muted-foreground">{d.last_error || '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">{deliveries.isPending ? 'Carregando...' : 'Nenhuma entrega recente.'}</p>
          )}
        </CardContent>
      </Card>
    </div>
  )
}
