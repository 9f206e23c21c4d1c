import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Toaster } from '@/components/ui/Toaster'
import { dismissToast } from '@/components/ui/toast'
import { createQueryClient } from '@/lib/queryClient'
import { fakeConnectionsApi, person } from '../test/fakeConnectionsApi'
import ConnectionsPage from './ConnectionsPage'

function renderPage() {
  const router = createMemoryRouter([{ path: '/connections', element: <ConnectionsPage /> }], { initialEntries: ['/connections'] })
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  )
}

const region = (name: string) => screen.getByRole('region', { name: new RegExp(`^${name}`) })
const now = new Date().toISOString()

beforeEach(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true
  }
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false
  }
})
afterEach(() => {
  vi.unstubAllGlobals()
  dismissToast()
})

describe('ConnectionsPage', () => {
  it('accepts and rejects received requests with their toasts', async () => {
    const api = fakeConnectionsApi({
      lists: {
        received: [
          { id: 'r1', user: person('u1', 'Ana'), created_at: now },
          { id: 'r2', user: person('u2', 'Bruno'), created_at: now },
        ],
        sent: [],
        connections: [],
      },
    })
    renderPage()
    const received = await screen.findByRole('list', { name: 'Solicitações recebidas' })
    expect(within(received).getAllByRole('listitem')).toHaveLength(2)
    expect(within(received).getByRole('link', { name: 'Ana Souza' })).toHaveAttribute('href', '/profile/u1')

    await userEvent.click(screen.getByRole('button', { name: 'Aceitar Ana Souza' }))
    expect(await screen.findByText('Conexão aceita!')).toBeInTheDocument()
    expect(api.calls).toContainEqual(expect.objectContaining({ method: 'POST', path: '/api/connections/r1/accept' }))
    // The accepted request moves to the connections list.
    const mine = await screen.findByRole('list', { name: 'Minhas conexões' })
    expect(within(mine).getByText('Ana Souza')).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Recusar Bruno Souza' }))
    expect(await screen.findByText('Conexão rejeitada')).toBeInTheDocument()
    await waitFor(() => expect(within(region('Solicitações recebidas')).getByText('Nenhuma solicitação pendente.')).toBeInTheDocument())
  })

  it('removes a connection only after confirmation', async () => {
    const api = fakeConnectionsApi({
      lists: { received: [], sent: [], connections: [{ id: 'c1', user: person('u1', 'Carla'), connected_at: now }] },
    })
    renderPage()
    await userEvent.click(await screen.findByRole('button', { name: 'Remover Carla Souza' }))
    const dialog = screen.getByRole('dialog', { name: 'Remover conexão' })
    expect(dialog).toHaveTextContent('Tem certeza de que deseja remover Carla Souza das suas conexões?')
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }))
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false)

    await userEvent.click(screen.getByRole('button', { name: 'Remover Carla Souza' }))
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Remover conexão' })).getByRole('button', { name: 'Remover' }))
    expect(await screen.findByText('Conexão removida')).toBeInTheDocument()
    expect(api.calls).toContainEqual(expect.objectContaining({ method: 'DELETE', path: '/api/connections/c1' }))
    expect(await screen.findByText('Você ainda não tem conexões.')).toBeInTheDocument()
  })

  it('searches connections by name on the server', async () => {
    const api = fakeConnectionsApi({
      lists: {
        received: [],
        sent: [],
        connections: [
          { id: 'c1', user: person('u1', 'João'), connected_at: now },
          { id: 'c2', user: person('u2', 'Maria'), connected_at: now },
        ],
      },
    })
    renderPage()
    const list = await screen.findByRole('list', { name: 'Minhas conexões' })
    expect(within(list).getAllByRole('listitem')).toHaveLength(2)
    await userEvent.type(screen.getByLabelText('Buscar conexões'), 'mar')
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Minhas conexões' })).getAllByRole('listitem')).toHaveLength(1))
    expect(api.calls.some((c) => c.search === '?q=mar')).toBe(true)
    await userEvent.clear(screen.getByLabelText('Buscar conexões'))
    await userEvent.type(screen.getByLabelText('Buscar conexões'), 'zzz')
    expect(await screen.findByText('Nenhuma conexão encontrada.')).toBeInTheDocument()
  })

  it('connects with a suggestion and lists it as sent, then cancels', async () => {
    fakeConnectionsApi({
      suggestions: [
        { user: person('u9', 'Diego'), mutual_count: 2, shared_specialties: ['cirurgia', 'cardiologia'] },
        { user: person('u8', 'Elisa'), mutual_count: 0, shared_specialties: [] },
      ],
    })
    renderPage()
    const suggestions = await screen.findByRole('list', { name: 'Sugestões para você' })
    expect(within(suggestions).getByText('2 conexões em comum · Cirurgia, Cardiologia')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Conectar com Diego Souza' }))
    expect(await screen.findByText('Solicitação de conexão enviada!')).toBeInTheDocument()
    const sent = await screen.findByRole('list', { name: 'Solicitações enviadas' })
    expect(within(sent).getByText('Diego Souza')).toBeInTheDocument()
    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Sugestões para você' })).queryByText('Diego Souza')).toBeNull())

    await userEvent.click(within(sent).getByRole('button', { name: 'Cancelar solicitação para Diego Souza' }))
    expect(await screen.findByText('Solicitação cancelada')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Solicitações enviadas' })).toBeNull())
  })

  it("shows the server's reason, or the action's failure message when the server fails", async () => {
    fakeConnectionsApi(
      { lists: { received: [{ id: 'r1', user: person('u1', 'Ana'), created_at: now }], sent: [], connections: [] } },
      { fail: (c) => c.method === 'POST' },
    )
    renderPage()
    await userEvent.click(await screen.findByRole('button', { name: 'Aceitar Ana Souza' }))
    expect(await screen.findByText('Erro ao aceitar conexão', {}, { timeout: 8000 })).toBeInTheDocument()
  }, 15_000)

  it('refused answers show the API message', async () => {
    fakeConnectionsApi(
      { lists: { received: [{ id: 'r1', user: person('u1', 'Ana'), created_at: now }], sent: [], connections: [] } },
      { fail: (c) => c.method === 'POST', failStatus: 404, failMessage: 'Solicitação de conexão não encontrada' },
    )
    renderPage()
    await userEvent.click(await screen.findByRole('button', { name: 'Recusar Ana Souza' }))
    expect(await screen.findByText('Solicitação de conexão não encontrada')).toBeInTheDocument()
  })

  it('a failed read shows empty lists, silently', async () => {
    fakeConnectionsApi({}, { fail: (c) => c.method === 'GET', failStatus: 404 })
    renderPage()
    expect(await screen.findByText('Nenhuma solicitação pendente.')).toBeInTheDocument()
    expect(screen.getByText('Você ainda não tem conexões.')).toBeInTheDocument()
    expect(screen.queryByRole('alert')).toBeNull()
  })
})
