import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Toaster } from '@/components/ui/Toaster'
import { createQueryClient } from '@/lib/queryClient'
import { fakeBrowserPush, removeBrowserPush } from '../test/browserPush'
import PushTestPage from './PushTestPage'

const json = (status: number, body?: unknown) => new Response(body === undefined ? null : JSON.stringify(body), { status })

function serve(testAnswer: () => Response) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const path = String(input)
    if (path === '/api/push/subscriptions')
      return json(200, { subscriptions: [{ id: 's1', endpoint: 'https://push.example.test/send/device-1', is_active: true, user_agent: 'x', created_at: '2026-03-20T12:00:00Z' }] })
    if (path === '/api/push/deliveries')
      return json(200, {
        deliveries: [
          { id: 2, endpoint: 'https://push.example.test/send/device-1', status: 'sent', attempts: 1, last_error: '', created_at: '2026-03-20T12:00:00Z', delivered_at: '2026-03-20T12:00:01Z', kind: 'test', title: 'Notificação de teste' },
          { id: 1, endpoint: 'https://push.example.test/send/old', status: 'gone', attempts: 1, last_error: '410 Gone', created_at: '2026-03-19T12:00:00Z', delivered_at: null, kind: 'like', title: 'Curtida' },
        ],
      })
    if (path === '/api/push/test') return testAnswer()
    return json(404)
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

function renderPage() {
  render(
    <QueryClientProvider client={createQueryClient()}>
      <PushTestPage />
      <Toaster />
    </QueryClientProvider>,
  )
}

afterEach(() => removeBrowserPush())

describe('PushTestPage', () => {
  it("shows this device's endpoint, the devices and the deliveries with their status", async () => {
    fakeBrowserPush({ permission: 'granted', subscribed: true })
    serve(() => json(202, { sent: 1 }))
    renderPage()
    expect(await screen.findByTestId('push-endpoint')).toHaveTextContent('https://push.example.test/send/device-1')
    expect(await screen.findByText('(este dispositivo)')).toBeInTheDocument()
    const rows = await screen.findAllByTestId('push-delivery')
    expect(rows).toHaveLength(2)
    expect(within(rows[0]!).getByText('Entregue')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('Inscrição expirada')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('410 Gone')).toBeInTheDocument()
  })

  it.each<[NotificationPermission, string]>([
    ['default', 'ainda não respondida'],
    ['granted', 'permitida'],
    ['denied', 'bloqueada'],
  ])("names the browser's permission %s in Portuguese", async (permission, words) => {
    fakeBrowserPush({ permission })
    serve(() => json(202, { sent: 1 }))
    renderPage()
    const line = await screen.findByText(/^Permissão do navegador:/)
    await waitFor(() => expect(line).toHaveTextContent(`Permissão do navegador: ${words}`))
    expect(line.textContent).not.toMatch(/default|granted|denied/)
  })

  it.each([
    [202, 'Notificação teste enviada! Verifique se foi recebida.'],
    [409, 'Você precisa estar inscrito nas notificações para testar'],
    [500, 'Erro ao enviar notificação teste'],
  ])('a test push answered %i says %s', async (status, message) => {
    fakeBrowserPush()
    const fetchMock = serve(() => (status === 202 ? json(202, { sent: 1 }) : json(status, { error: { code: 'X', message: 'x' } })))
    renderPage()
    await userEvent.click(screen.getByRole('button', { name: 'Enviar notificação teste' }))
    expect(await screen.findByText(message)).toBeInTheDocument()
    // Never repeated: a refused test stays refused.
    expect(fetchMock.mock.calls.filter(([p]) => String(p) === '/api/push/test')).toHaveLength(1)
  })
})
