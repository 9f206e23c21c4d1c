import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { dismissToast } from '@/components/ui/toast'
import { renderWithApp } from '@/test/renderWithApp'
import { SecuritySection } from './SecuritySection'

type Call = { method: string; path: string; body: unknown }

function fakeApi(routes: Record<string, (body: unknown) => { status: number; body: unknown }>) {
  const calls: Call[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost')
      const method = (init?.method ?? 'GET').toUpperCase()
      const body = init?.body ? JSON.parse(String(init.body)) : undefined
      calls.push({ method, path: url.pathname, body })
      const defaults: Record<string, () => { status: number; body: unknown }> = {
        '/api/auth/sessions': () => ({ status: 200, body: { sessions: [] } }),
        '/api/auth/passkeys': () => ({ status: 200, body: { passkeys: [] } }),
        '/api/auth/email': () => ({ status: 200, body: { email: 'ana@example.com', has_password: true, google: false, pending: null } }),
      }
      const route = routes[`${method} ${url.pathname}`] ?? (method === 'GET' ? defaults[url.pathname] : undefined)
      if (!route) return new Response(JSON.stringify({ error: { code: 'unauthorized', message: 'Faça login' } }), { status: 401 })
      const r = route(body)
      return new Response(JSON.stringify(r.body), { status: r.status, headers: { 'Content-Type': 'application/json' } })
    }),
  )
  return calls
}

function renderSection() {
  document.cookie = 'vc_csrf=abc; Path=/'
  const router = createMemoryRouter([{ path: '/profile', element: <SecuritySection /> }], { initialEntries: ['/profile'] })
  renderWithApp(router)
}

afterEach(() => {
  vi.unstubAllGlobals()
  dismissToast()
  document.cookie = 'vc_csrf=; Path=/; Max-Age=0'
})

describe('Segurança: two-step verification', () => {
  it('enrols with the QR code, confirms with a code and shows the recovery codes once', async () => {
    let enabled = false
    const codes = Array.from({ length: 10 }, (_, i) => `abcde-${String(i).padStart(5, '0')}`)
    const calls = fakeApi({
      'GET /api/auth/session': () => ({ status: 200, body: { user: { id: 'u1', email: 'a@b.c', provider: 'email', roles: ['user'], created_at: '' } } }),
      'GET /api/auth/two-step': () => ({ status: 200, body: { enabled, recovery_codes_left: enabled ? 10 : 0, required: true } }),
      'POST /api/auth/two-step/totp': () => ({ status: 200, body: { secret: 'JBSWY3DPEHPK3PXP', otpauth_url: 'otpauth://totp/x', qr_code: 'data:image/png;base64,AAAA' } }),
      'POST /api/auth/two-step/totp/confirm': (b) => {
        if ((b as { code: string }).code !== '123456') return { status: 422, body: { error: { code: 'invalid', message: 'Código de verificação inválido.' } } }
        enabled = true
        return { status: 200, body: { message: 'Verificação em duas etapas ativada.', recovery_codes: codes } }
      },
    })
    const user = userEvent.setup()
    renderSection()
    expect(await screen.findByText(/Sua função na equipe exige/)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Ativar verificação em duas etapas' }))
    expect(await screen.findByRole('img', { name: 'QR code para o aplicativo autenticador' })).toHaveAttribute('src', 'data:image/png;base64,AAAA')
    expect(screen.getByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP')

    const confirm = screen.getByRole('button', { name: 'Confirmar e ativar' })
    expect(confirm).toBeDisabled()
    await user.type(screen.getByLabelText('Código do aplicativo'), '000000')
    await user.click(confirm)
    expect(await screen.findByRole('alert')).toHaveTextContent('Código de verificação inválido.')

    await user.clear(screen.getByLabelText('Código do aplicativo'))
    await user.type(screen.getByLabelText('Código do aplicativo'), '123456')
    await user.click(confirm)
    const list = await screen.findByRole('list', { name: 'Códigos de recuperação' })
    expect(within(list).getAllByRole('listitem').map((li) => li.textContent)).toEqual(codes)
    expect(calls.filter((c) => c.path === '/api/auth/two-step/totp/confirm').map((c) => c.body)).toEqual([{ code: '000000' }, { code: '123456' }])

    // Shown once: after "Já guardei", only the count remains.
    await user.click(screen.getByRole('button', { name: 'Já guardei meus códigos' }))
    expect(await screen.findByText('Restam 10 códigos de recuperação.')).toBeInTheDocument()
    expect(screen.queryByRole('list', { name: 'Códigos de recuperação' })).not.toBeInTheDocument()
  })

  it('disables with the password and a code, showing the server refusal', async () => {
    let enabled = true
    const calls = fakeApi({
      'GET /api/auth/session': () => ({ status: 200, body: { user: { id: 'u1', email: 'a@b.c', provider: 'email', roles: ['user'], created_at: '' } } }),
      'GET /api/auth/two-step': () => ({ status: 200, body: { enabled, recovery_codes_left: 1, required: false } }),
      'POST /api/auth/two-step/totp/disable': (b) => {
        const { password } = b as { password: string }
        if (password !== 'Certa#2026') return { status: 401, body: { error: { code: 'unauthorized', message: 'Senha incorreta.' } } }
        enabled = false
        return { status: 200, body: { message: 'Verificação em duas etapas desativada.' } }
      },
    })
    const user = userEvent.setup()
    renderSection()
    expect(await screen.findByText('Resta 1 código de recuperação.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Desativar' }))
    const form = screen.getByRole('form', { name: 'Desativar verificação em duas etapas' })
    await user.type(within(form).getByLabelText('Senha atual'), 'Errada#1')
    await user.type(within(form).getByLabelText('Código do aplicativo ou de recuperação'), '654321')
    await user.click(within(form).getByRole('button', { name: 'Desativar verificação em duas etapas' }))
    expect(await within(form).findByRole('alert')).toHaveTextContent('Senha incorreta.')
    await user.clear(within(form).getByLabelText('Senha atual'))
    await user.type(within(form).getByLabelText('Senha atual'), 'Certa#2026')
    await user.click(within(form).getByRole('button', { name: 'Desativar verificação em duas etapas' }))
    expect(await screen.findByRole('button', { name: 'Ativar verificação em duas etapas' })).toBeInTheDocument()
    expect(calls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ password: 'Certa#2026', code: '654321' })
  })
})

describe('Segurança: password', () => {
  it('changes the password with the current one and shows the validator refusal', async () => {
    const calls = fakeApi({
      'GET /api/auth/session': () => ({ status: 200, body: { user: { id: 'u1', email: 'a@b.c', provider: 'email', roles: ['user'], created_at: '' } } }),
      'GET /api/auth/two-step': () => ({ status: 200, body: { enabled: false, recovery_codes_left: 0, required: false } }),
      'POST /api/auth/password/change': (b) => {
        const { password } = b as { password: string }
        if (password.length < 8) return { status: 422, body: { error: { code: 'invalid', message: 'Senha inválida: deve ter pelo menos 8 caracteres', fields: { password: 'Senha inválida: deve ter pelo menos 8 caracteres' } } } }
        return { status: 200, body: { message: 'Senha alterada com sucesso! As outras sessões foram encerradas.' } }
      },
    })
    const user = userEvent.setup()
    renderSection()
    const form = await screen.findByRole('form', { name: 'Alterar senha' })
    await user.type(within(form).getByLabelText('Senha atual'), 'Atual#2026x')
    await user.type(within(form).getByLabelText('Nova senha'), 'Cu1#a')
    await user.click(within(form).getByRole('button', { name: 'Alterar senha' }))
    expect(await within(form).findByRole('alert')).toHaveTextContent('Senha inválida: deve ter pelo menos 8 caracteres')
    await user.clear(within(form).getByLabelText('Nova senha'))
    await user.type(within(form).getByLabelText('Nova senha'), 'Nova#Senha2026')
    await user.click(within(form).getByRole('button', { name: 'Alterar senha' }))
    expect(await within(form).findByRole('status')).toHaveTextContent('As outras sessões foram encerradas.')
    expect(calls.filter((c) => c.path === '/api/auth/password/change').at(-1)?.body).toEqual({ current_password: 'Atual#2026x', password: 'Nova#Senha2026' })
  })
})

describe('Segurança: sessions', () => {
  it('lists the sessions and ends another one', async () => {
    let sessions = [
      { id: 's1', created_at: '2026-11-28T10:00:00Z', last_used_at: '2026-11-28T12:00:00Z', user_agent: 'Firefox no Linux', current: true },
      { id: 's2', created_at: '2026-11-27T10:00:00Z', last_used_at: '2026-11-27T15:30:00Z', user_agent: 'Safari no iPhone', current: false },
    ]
    const calls = fakeApi({
      'GET /api/auth/session': () => ({ status: 200, body: { user: { id: 'u1', email: 'a@b.c', provider: 'email', roles: ['user'], created_at: '' } } }),
      'GET /api/auth/two-step': () => ({ status: 200, body: { enabled: false, recovery_codes_left: 0, required: false } }),
      'GET /api/auth/sessions': () => ({ status: 200, body: { sessions } }),
      'DELETE /api/auth/sessions/s2': () => {
        sessions = sessions.filter((s) => s.id !== 's2')
        return { status: 200, body: {} }
      },
    })
    const user = userEvent.setup()
    renderSection()
    const list = await screen.findByRole('list', { name: 'Sessões ativas' })
    expect(within(list).getAllByRole('listitem')).toHaveLength(2)
    expect(within(list).getByText(/Esta sessão · último uso em 28\/11\/2026/)).toBeInTheDocument()
    // The current session cannot be ended from here (that is "Sair").
    expect(within(list).getAllByRole('button', { name: 'Encerrar' })).toHaveLength(1)
    await user.click(within(list).getByRole('button', { name: 'Encerrar' }))
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1))
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/auth/sessions/s2')).toBe(true)
  })
})
