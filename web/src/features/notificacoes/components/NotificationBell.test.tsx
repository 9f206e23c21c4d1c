import { Toaster } from '@/components/ui/Toaster'
import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createQueryClient } from '@/lib/queryClient'
import { fakeNotificationsApi, notification } from '../test/fakeApi'
import { NotificationBell } from './NotificationBell'

function renderBell() {
  const client = createQueryClient()
  const router = createMemoryRouter([
    { path: '/', element: <NotificationBell /> },
    { path: '/community', element: <p>Comunidade aberta</p> },
    { path: '/desafios', element: <p>Desafios abertos</p> },
  ])
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  )
  return { client, router }
}

const badge = () => screen.queryByTestId('notification-badge')
async function openDropdown() {
  await userEvent.click(screen.getByRole('button', { name: /^Notificações/ }))
  return screen.getByRole('region', { name: 'Notificações' })
}

beforeEach(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true
  }
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false
  }
})
afterEach(() => vi.unstubAllGlobals())

describe('NotificationBell', () => {
  it("shows '9+' above nine unread, and the exact count at nine", async () => {
    fakeNotificationsApi(Array.from({ length: 10 }, (_, i) => notification(String(i))))
    renderBell()
    await waitFor(() => expect(badge()).toHaveTextContent('9+'))
    expect(screen.getByRole('button', { name: /^Notificações/ })).toHaveAccessibleName(/^Notificações\s?9\+\s?não lidas$/)
    const panel = await openDropdown()
    await userEvent.click(within(panel).getByRole('button', { name: 'Marcar como lida: Título 0' }))
    await waitFor(() => expect(badge()).toHaveTextContent(/^9$/))
  })

  it('lists the newest with the related user, and scrolls within max-h-96', async () => {
    fakeNotificationsApi([notification('1', { title: 'Nova curtida', message: 'Ana curtiu seu post' })])
    renderBell()
    await waitFor(() => expect(badge()).toHaveTextContent('1'))
    const panel = await openDropdown()
    const list = within(panel).getByRole('list', { name: 'Lista de notificações' })
    expect(list).toHaveClass('max-h-96', 'overflow-y-auto')
    expect(within(list).getByText('Ana Souza')).toBeInTheDocument()
    expect(within(list).getByText('AS')).toBeInTheDocument()
    expect(within(list).getByText('Nova curtida')).toBeInTheDocument()
    expect(within(list).getByText('Ana curtiu seu post')).toBeInTheDocument()
    expect(within(list).getByText('há 5 minutos')).toBeInTheDocument()
  })

  it('deleting an unread item lowers the count; a read one does not', async () => {
    const api = fakeNotificationsApi([notification('a'), notification('b'), notification('c', { is_read: true })])
    renderBell()
    await waitFor(() => expect(badge()).toHaveTextContent('2'))
    const panel = await openDropdown()
    await userEvent.click(within(panel).getByRole('button', { name: 'Excluir notificação: Título c' }))
    expect(badge()).toHaveTextContent('2')
    await userEvent.click(within(panel).getByRole('button', { name: 'Excluir notificação: Título a' }))
    expect(badge()).toHaveTextContent('1')
    await waitFor(() => expect(api.items().map((n) => n.id)).toEqual(['b']))
    expect(within(panel).getAllByTestId('notification-item')).toHaveLength(1)
  })

  it("'Marcar todas como lidas' clears the badge; 'Limpar todas' empties the list", async () => {
    const api = fakeNotificationsApi([notification('a'), notification('b')])
    renderBell()
    await waitFor(() => expect(badge()).toHaveTextContent('2'))
    let panel = await openDropdown()
    await userEvent.click(within(panel).getByRole('button', { name: 'Marcar todas como lidas' }))
    expect(badge()).toBeNull()
    expect(api.calls).toContainEqual({ method: 'POST', path: '/api/notifications/read-all', body: undefined })
    await userEvent.click(within(panel).getByRole('button', { name: 'Limpar todas' }))
    panel = screen.getByRole('region', { name: 'Notificações' })
    expect(within(panel).getByText('Nenhuma notificação no momento.')).toBeInTheDocument()
    await waitFor(() => expect(api.items()).toEqual([]))
  })

  it('a like with a post opens it on /community and becomes read', async () => {
    const api = fakeNotificationsApi([notification('l', { type: 'like', related_post_id: 'p1', title: 'Curtida' })])
    const { router } = renderBell()
    await waitFor(() => expect(badge()).toHaveTextContent('1'))
    const panel = await openDropdown()
    await userEvent.click(within(panel).getByText('Curtida'))
    expect(await screen.findByText('Comunidade aberta')).toBeInTheDocument()
    expect(router.state.location.search).toBe('?post=p1')
    await waitFor(() => expect(api.calls).toContainEqual({ method: 'POST', path: '/api/notifications/l/read', body: undefined }))
  })

  it('a challenge goes to /desafios', async () => {
    fakeNotificationsApi([notification('d', { type: 'challenge', title: 'Novo desafio', link: '/challenges' })])
    renderBell()
    const panel = await openDropdown()
    await userEvent.click(await within(panel).findByText('Novo desafio'))
    expect(await screen.findByText('Desafios abertos')).toBeInTheDocument()
  })

  it('a connection offers Aceitar / Recusar on its request, and is read after the answer', async () => {
    const api = fakeNotificationsApi([
      notification('c1', { type: 'connection', title: 'Pedido de conexão', data: { connection_id: 'conn-1' } }),
      notification('c2', { type: 'connection', title: 'Outro pedido', data: { connection_id: 'conn-2' } }),
    ])
    renderBell()
    await waitFor(() => expect(badge()).toHaveTextContent('2'))
    const panel = await openDropdown()
    const [first, second] = within(panel).getAllByTestId('notification-item')
    await userEvent.click(within(first!).getByRole('button', { name: 'Aceitar' }))
    await waitFor(() => expect(badge()).toHaveTextContent('1'))
    expect(api.calls).toContainEqual({ method: 'POST', path: '/api/connections/conn-1/accept', body: undefined })
    expect(api.calls).toContainEqual({ method: 'POST', path: '/api/notifications/c1/read', body: undefined })
    expect(within(first!).queryByRole('button', { name: 'Aceitar' })).toBeNull()
    expect(await screen.findByRole('status')).toHaveTextContent('Conexão aceita!')
    await userEvent.click(within(second!).getByRole('button', { name: 'Recusar' }))
    await waitFor(() => expect(badge()).toBeNull())
    expect(await screen.findByRole('status')).toHaveTextContent('Conexão rejeitada')
    expect(api.calls).toContainEqual({ method: 'POST', path: '/api/connections/conn-2/reject', body: undefined })
  })

  it('a failed load shows an empty list, silently', async () => {
    fakeNotificationsApi([notification('x')], { fail: (c) => c.method === 'GET' })
    renderBell()
    const panel = await openDropdown()
    expect(await within(panel).findByText('Nenhuma notificação no momento.')).toBeInTheDocument()
    expect(badge()).toBeNull()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('posts the unread count to the service worker', async () => {
    const postMessage = vi.fn()
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { controller: { postMessage } } })
    try {
      fakeNotificationsApi([notification('a'), notification('b'), notification('c')])
      renderBell()
      await waitFor(() => expect(postMessage).toHaveBeenLastCalledWith({ type: 'BADGE_UPDATE', count: 3 }))
    } finally {
      delete (navigator as { serviceWorker?: unknown }).serviceWorker
    }
  })
})
