import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Toaster } from '@/components/ui/Toaster'
import { dismissToast } from '@/components/ui/toast'
import { createQueryClient } from '@/lib/queryClient'
import { fakeConnectionsApi, person } from '../test/fakeConnectionsApi'
import { ConnectButton } from './ConnectButton'
import { MutualConnections } from './MutualConnections'

function renderButton(userId = 'u1') {
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <>
          <ConnectButton userId={userId} name="Ana Souza" />
          <MutualConnections userId={userId} />
        </>
      ),
    },
  ])
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  )
}

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

describe('ConnectButton', () => {
  it('none → pending (cancel) → none', async () => {
    const api = fakeConnectionsApi({})
    renderButton()
    await userEvent.click(await screen.findByRole('button', { name: 'Conectar' }))
    expect(await screen.findByText('Solicitação de conexão enviada!')).toBeInTheDocument()
    expect(api.calls).toContainEqual(expect.objectContaining({ method: 'POST', path: '/api/connections', body: { user_id: 'u1' } }))
    expect(await screen.findByText('Solicitação enviada')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar solicitação' }))
    expect(await screen.findByRole('button', { name: 'Conectar' })).toBeInTheDocument()
    expect(api.calls).toContainEqual(expect.objectContaining({ method: 'DELETE', path: '/api/connections/new-1' }))
  })

  it('answers a received request, then removes the connection after confirming', async () => {
    const api = fakeConnectionsApi({ status: { u1: { status: 'pending_received', id: 'r1' } } })
    renderButton()
    expect(await screen.findByText('Ana Souza quer se conectar com você')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Aceitar' }))
    expect(await screen.findByText('Conexão aceita!')).toBeInTheDocument()
    expect(await screen.findByText('Conectado')).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Remover conexão' }))
    const dialog = screen.getByRole('dialog', { name: 'Remover conexão' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remover' }))
    expect(await screen.findByText('Conexão removida')).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Conectar' })).toBeInTheDocument()
    expect(api.calls).toContainEqual(expect.objectContaining({ method: 'DELETE', path: '/api/connections/r1' }))
  })

  it('rejects a received request', async () => {
    fakeConnectionsApi({ status: { u1: { status: 'pending_received', id: 'r1' } } })
    renderButton()
    await userEvent.click(await screen.findByRole('button', { name: 'Recusar' }))
    expect(await screen.findByText('Conexão rejeitada')).toBeInTheDocument()
    expect(await screen.findByRole('button', { name: 'Conectar' })).toBeInTheDocument()
  })

  it('offers nothing for a blocked pair', async () => {
    const api = fakeConnectionsApi({ status: { u1: { status: 'blocked', id: null } } })
    renderButton()
    await waitFor(() => expect(api.calls.some((c) => c.path === '/api/connections/status/u1')).toBe(true))
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull())
    expect(screen.queryByRole('button')).toBeNull()
  })

  it("shows the API's refusal", async () => {
    fakeConnectionsApi({}, { fail: (c) => c.method === 'POST', failStatus: 403, failMessage: 'Não é possível se conectar com este usuário' })
    renderButton()
    await userEvent.click(await screen.findByRole('button', { name: 'Conectar' }))
    expect(await screen.findByText('Não é possível se conectar com este usuário')).toBeInTheDocument()
  })

  it('lists mutual connections with links', async () => {
    fakeConnectionsApi({ mutual: { u1: { mutual: [person('m1', 'Bia'), person('m2', 'Caio')], count: 2 } } })
    renderButton()
    expect(await screen.findByRole('heading', { name: '2 conexões em comum' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Bia Souza/ })).toHaveAttribute('href', '/profile/m1')
  })
})
