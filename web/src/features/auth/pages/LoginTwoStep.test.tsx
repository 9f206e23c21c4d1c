import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { dismissToast } from '@/components/ui/toast'
import { renderWithApp } from '@/test/renderWithApp'
import LoginPage from './LoginPage'

const user1 = { id: 'u1', email: 'ana@exemplo.com.br', provider: 'email', roles: ['user'], created_at: '' }

function fakeApi(verify: (body: { code: string; remember_device: boolean }) => { status: number; body: unknown }) {
  const calls: { path: string; body: unknown }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname
      const body = init?.body ? JSON.parse(String(init.body)) : undefined
      calls.push({ path, body })
      const json = (status: number, b: unknown) => new Response(JSON.stringify(b), { status, headers: { 'Content-Type': 'application/json' } })
      if (path === '/api/auth/login') return json(200, { two_step_required: true, message: 'Digite o código de verificação do seu aplicativo autenticador.' })
      if (path === '/api/auth/two-step/verify') {
        const r = verify(body)
        return json(r.status, r.body)
      }
      if (path === '/api/auth/providers') return json(200, { google: false })
      return json(401, { error: { code: 'unauthorized', message: 'Faça login para continuar.' } })
    }),
  )
  return calls
}

function renderLogin(entry: string) {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/', element: <p>início</p> },
      { path: '/cursos', element: <p>cursos</p> },
    ],
    { initialEntries: [entry] },
  )
  renderWithApp(router)
  return router
}

afterEach(() => {
  vi.unstubAllGlobals()
  dismissToast()
})

describe('sign-in with two-step verification', () => {
  it('asks for the code after the password, shows a wrong code and signs in with a good one', async () => {
    const calls = fakeApi((b) =>
      b.code === '123456'
        ? { status: 200, body: { message: 'Login realizado com sucesso!', user: user1 } }
        : { status: 401, body: { error: { code: 'unauthorized', message: 'Código de verificação inválido.' } } },
    )
    const u = userEvent.setup()
    const router = renderLogin('/login?redirect=%2Fcursos')
    await u.type(await screen.findByLabelText('Email'), 'ana@exemplo.com.br')
    await u.type(screen.getByLabelText('Senha'), 'Vet!Clube2026seguro')
    await u.click(screen.getByRole('button', { name: 'Entrar' }))

    const code = await screen.findByLabelText('Código de verificação')
    expect(screen.queryByLabelText('Senha')).not.toBeInTheDocument()
    await u.type(code, '000000')
    await u.click(screen.getByRole('button', { name: 'Verificar' }))
    expect(await screen.findByText('Código de verificação inválido.')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/login')

    await u.type(screen.getByLabelText('Código de verificação'), '123456')
    await u.click(screen.getByLabelText('Lembrar este dispositivo por 30 dias'))
    await u.click(screen.getByRole('button', { name: 'Verificar' }))
    expect(await screen.findByText('cursos')).toBeInTheDocument()
    expect(calls.filter((c) => c.path === '/api/auth/two-step/verify').map((c) => c.body)).toEqual([
      { code: '000000', remember_device: false },
      { code: '123456', remember_device: true },
    ])
  })

  it('starts at the code step when Google sent the member back for it, and offers a new sign-in once the step expired', async () => {
    fakeApi(() => ({ status: 401, body: { error: { code: 'unauthorized', message: 'A verificação expirou. Entre novamente.' } } }))
    const u = userEvent.setup()
    renderLogin('/login?verificacao=1&redirect=%2F')
    await u.type(await screen.findByLabelText('Código de verificação'), '123456')
    await u.click(screen.getByRole('button', { name: 'Verificar' }))
    await u.click(await screen.findByRole('button', { name: 'Entrar novamente' }))
    expect(await screen.findByLabelText('Senha')).toBeInTheDocument()
  })
})
