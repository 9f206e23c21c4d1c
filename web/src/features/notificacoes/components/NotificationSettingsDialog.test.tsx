import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Toaster } from '@/components/ui/Toaster'
import { createQueryClient } from '@/lib/queryClient'
import { refreshPushState } from '../push/pushState'
import { fakeBrowserPush, removeBrowserPush, type FakePushOptions } from '../test/browserPush'
import { fakeNotificationsApi } from '../test/fakeApi'
import { NotificationSettingsDialog } from './NotificationSettingsDialog'

async function renderDialog(push: FakePushOptions = {}) {
  fakeBrowserPush(push)
  await refreshPushState()
  render(
    <QueryClientProvider client={createQueryClient()}>
      <NotificationSettingsDialog open onOpenChange={() => {}} />
      <Toaster />
    </QueryClientProvider>,
  )
  return within(await screen.findByRole('dialog', { name: 'Configurações de notificações' }))
}

beforeEach(() => {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true
  }
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false
  }
})
afterEach(() => removeBrowserPush())

describe('NotificationSettingsDialog', () => {
  it('saves a switch at once and confirms', async () => {
    const api = fakeNotificationsApi([])
    const dialog = await renderDialog()
    const marketing = await dialog.findByRole('switch', { name: 'Novidades e ofertas' })
    expect(marketing).toHaveAttribute('aria-checked', 'false')
    for (const name of ['Conexões', 'Comentários', 'Curtidas', 'Desafios', 'Cursos', 'Comunidade']) {
      expect(dialog.getByRole('switch', { name })).toHaveAttribute('aria-checked', 'true')
    }
    await userEvent.click(marketing)
    expect(marketing).toHaveAttribute('aria-checked', 'true')
    expect(await screen.findByText('Preferências atualizadas com sucesso')).toBeInTheDocument()
    expect(api.preferences().marketing_enabled).toBe(true)
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ marketing_enabled: true, likes_enabled: true, quiet_hours_start: '22:00' })
  })

  it('rolls the switch back when the server refuses, with the error toast', async () => {
    let release: () => void = () => {}
    const gate = new Promise<void>((r) => (release = r))
    const api = fakeNotificationsApi([], { fail: (c) => c.method === 'PUT', failStatus: 400 })
    const inner = api.fetchMock.getMockImplementation()!
    api.fetchMock.mockImplementation(async (input, init) => {
      if (init?.method === 'PUT') await gate
      return inner(input, init)
    })
    const dialog = await renderDialog()
    const likes = await dialog.findByRole('switch', { name: 'Curtidas' })
    await userEvent.click(likes)
    // Optimistic: moved before the answer.
    expect(likes).toHaveAttribute('aria-checked', 'false')
    release()
    expect(await screen.findByText('Erro ao atualizar preferências')).toBeInTheDocument()
    await waitFor(() => expect(likes).toHaveAttribute('aria-checked', 'true'))
  })

  it('quiet hours can be turned off (equal start and end) and on again (22:00–07:00)', async () => {
    const api = fakeNotificationsApi([])
    const dialog = await renderDialog()
    const quiet = await dialog.findByRole('switch', { name: 'Ativar horário silencioso' })
    expect(quiet).toHaveAttribute('aria-checked', 'true')
    await userEvent.click(quiet)
    await waitFor(() => expect(api.preferences().quiet_hours_start).toBe(api.preferences().quiet_hours_end))
    expect(quiet).toHaveAttribute('aria-checked', 'false')
    expect(dialog.queryByLabelText('Início')).toBeNull()
    expect(dialog.getByText('Desativado: as notificações push chegam a qualquer hora.')).toBeInTheDocument()
    await userEvent.click(quiet)
    await waitFor(() => expect(api.preferences()).toMatchObject({ quiet_hours_start: '22:00', quiet_hours_end: '07:00' }))
    expect(dialog.getByLabelText('Início')).toHaveValue('22:00')
  })

  it('quiet hours are saved when a time is changed', async () => {
    const api = fakeNotificationsApi([])
    const dialog = await renderDialog()
    const start = await dialog.findByLabelText('Início')
    expect(start).toHaveValue('22:00')
    expect(dialog.getByLabelText('Fim')).toHaveValue('07:00')
    await userEvent.clear(start)
    await userEvent.type(start, '23:30')
    await userEvent.tab()
    await waitFor(() => expect(api.preferences().quiet_hours_start).toBe('23:30'))
    expect(api.preferences().quiet_hours_end).toBe('07:00')
  })

  it('push switch: account-wide on/off with its own toast', async () => {
    const api = fakeNotificationsApi([])
    const dialog = await renderDialog()
    await userEvent.click(await dialog.findByRole('switch', { name: 'Notificações push' }))
    expect(await screen.findByText('Push notifications desativadas')).toBeInTheDocument()
    expect(api.preferences().push_enabled).toBe(false)
  })

  it('turning push on also turns it on for this device, so the switch and the device line agree', async () => {
    const api = fakeNotificationsApi([])
    const dialog = await renderDialog({ permission: 'default' })
    const push = await dialog.findByRole('switch', { name: 'Notificações push' })
    await userEvent.click(push)
    await waitFor(() => expect(api.preferences().push_enabled).toBe(false))
    await userEvent.click(push)
    await waitFor(() => expect(api.preferences().push_enabled).toBe(true))
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST' && c.path === '/api/push/subscriptions')).toBe(true))
    expect(await dialog.findByTestId('push-status')).toHaveTextContent('Ativas neste dispositivo')
  })

  it.each<[string, FakePushOptions, string]>([
    ['active', { permission: 'granted', subscribed: true }, 'Ativas neste dispositivo'],
    ['inactive', { permission: 'default' }, 'Ainda não ativadas neste dispositivo'],
    ['blocked', { permission: 'denied' }, 'Bloqueadas pelo navegador'],
    ['unsupported', { secure: false }, 'Não suportadas'],
  ])('shows this device as %s', async (status, push, label) => {
    fakeNotificationsApi([])
    const dialog = await renderDialog(push)
    expect(await dialog.findByTestId('push-status')).toHaveTextContent(label)
    if (status === 'blocked') {
      expect(dialog.getByText('Notificações foram bloqueadas. Para ativar:')).toBeInTheDocument()
      expect(dialog.getByText('Clique no ícone de cadeado ao lado do endereço do site')).toBeInTheDocument()
      expect(dialog.getByText('Recarregue a página')).toBeInTheDocument()
    }
    if (status === 'unsupported') expect(dialog.getByText('Notificações push não são suportadas neste dispositivo')).toBeInTheDocument()
    if (status === 'inactive') expect(dialog.getByRole('button', { name: 'Ativar notificações push' })).toBeInTheDocument()
    if (status === 'active') expect(dialog.getByRole('button', { name: 'Desativar neste dispositivo' })).toBeInTheDocument()
  })

  it('turning this device off cancels the subscription and tells the server', async () => {
    const api = fakeNotificationsApi([])
    const dialog = await renderDialog({ permission: 'granted', subscribed: true })
    await userEvent.click(await dialog.findByRole('button', { name: 'Desativar neste dispositivo' }))
    expect(await screen.findByText('Notificações push desativadas')).toBeInTheDocument()
    expect(api.calls).toContainEqual({
      method: 'POST',
      path: '/api/push/subscriptions/unsubscribe',
      body: { subscription: { endpoint: 'https://push.example.test/send/device-1' } },
    })
    expect(dialog.getByTestId('push-status')).toHaveTextContent('Ainda não ativadas neste dispositivo')
  })
})
