import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { dismissToast } from '@/components/ui/toast'
import { renderWithApp } from '@/test/renderWithApp'
import LoginCodePage from './LoginCodePage'

const user1 = { id: 'u1', email: 'ana@exemplo.com.br', provider: 'email', roles: ['user'], created_at: '' }

function fakeApi(verify: (body: Record<string, string>) => { status: number; body: unknown }) {
  const calls: { path: string; body: unknown }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(String(input), 'http://localhost').pathname
      const body = init?.body ? JSON.parse(String(init.body)) : undefined
      calls.push({ path, body })
      const json = (status: number, b: unknown) => new Response(JSON.stringify(b), { status, headers: { 'Content-Type': 'application/json' } })
      if (path === '/api/auth/code') return json(200, { message: 'Se o email estiver cadastrado, enviamos um código de acesso. Ele vale por 10 minutos.' })
      if (path === '/api/auth/code/verify') {
        const r = verify(body)
        return json(r.status, r.body)
      }
      return json(401, { error: { code: 'unauthorized', message: 'Faça login para continuar.' } })
    }),
  )
  return calls
}

function renderAt(entry: string) {
  renderWithApp(
    createMemoryRouter(
      [
        { path: '/login/codigo', element: <LoginCodePage /> },
        { path: '/cursos', element: <p>cursos</p> },
        { path: '/', element: <p>início</p> },
      ],
      { initialEntries: [entry] },
    ),
  )
}

afterEach(() => {
  vi.unstubAllGlobals()
  dismissToast()
})

describe('Entrar com código', () => {
  it('asks for a code by e-mail, refuses a wrong one and signs in with the right one', async () => {
    const calls = fakeApi((b) =>
      b.code === '482913'
        ? { status: 200, body: { message: 'Login realizado com sucesso!', user: user1 } }
        : { status: 401, body: { error: { code: 'unauthorized', message: 'Código inválido ou expirado. Confira o código ou solicite um novo.' } } },
    )
    const u = userEvent.setup()
    renderAt('/login/codigo?redirect=%2Fcursos')
    await u.type(await screen.findByLabelText('Email'), 'ana@exemplo.com.br')
    await u.click(screen.getByRole('button', { name: 'Enviar código' }))
    expect(await screen.findByText(/enviamos um código de acesso/)).toBeInTheDocument()
    const entrar = screen.getByRole('button', { name: 'Entrar' })
    await u.type(screen.getByLabelText('Código de acesso'), '111111')
    await u.click(entrar)
    expect(await screen.findByText(/Código inválido ou expirado/)).toBeInTheDocument()
    await u.type(screen.getByLabelText('Código de acesso'), '482913')
    await u.click(screen.getByRole('button', { name: 'Entrar' }))
    expect(await screen.findByText('cursos')).toBeInTheDocument()
    expect(calls.filter((c) => c.path.startsWith('/api/auth/code')).map((c) => c.body)).toEqual([
      { email: 'ana@exemplo.com.br' },
      { email: 'ana@exemplo.com.br', code: '111111' },
      { email: 'ana@exemplo.com.br', code: '482913' },
    ])
  })

  it("signs in from the e-mail's link, or says the link expired", async () => {
    fakeApi((b) => (b.token === 'bom' ? { status: 200, body: { message: 'Login realizado com sucesso!', user: user1 } } : { status: 401, body: { error: { code: 'unauthorized', message: 'Link de acesso inválido ou expirado. Solicite um novo código.' } } }))
    renderAt('/login/codigo?token=bom')
    expect(await screen.findByText('início')).toBeInTheDocument()
  })

  it('shows an expired link and offers a new code', async () => {
    fakeApi(() => ({ status: 401, body: { error: { code: 'unauthorized', message: 'Link de acesso inválido ou expirado. Solicite um novo código.' } } }))
    renderAt('/login/codigo?token=velho')
    expect(await screen.findByText('Link de acesso inválido ou expirado. Solicite um novo código.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Enviar código' })).toBeInTheDocument()
  })

  it('continues to the two-step code when the account has it', async () => {
    fakeApi(() => ({ status: 200, body: { two_step_required: true, message: 'Digite o código de verificação do seu aplicativo autenticador.' } }))
    renderAt('/login/codigo?token=bom')
    expect(await screen.findByLabelText('Código de verificação')).toBeInTheDocument()
  })
})
