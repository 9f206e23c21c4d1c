import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import ConfirmEmailPage from '@/features/auth/pages/ConfirmEmailPage'
import RegisterPremiumPage from '@/features/auth/pages/RegisterPremiumPage'
import { browser } from '@/features/subscription/checkout'
import { renderRoutes } from './renderRoutes'

type Call = { method: string; path: string; body: unknown }

function serve(answer: (c: Call) => { status: number; body?: unknown } | undefined) {
  const calls: Call[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost')
      const call = { method: init?.method ?? 'GET', path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined }
      calls.push(call)
      const a = answer(call) ?? { status: 404, body: { error: { code: 'ENOTFOUND', message: 'x' } } }
      return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json' } })
    }),
  )
  return calls
}

beforeEach(() => {
  document.cookie = 'vc_csrf=; Path=/; Max-Age=0'
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('/register-premium', () => {
  it('signs up with the premium intent and says the link continues to the payment', async () => {
    const calls = serve((c) => (c.path === '/api/auth/signup' ? { status: 201, body: { message: 'Conta criada com sucesso! Verifique seu email para confirmação.' } } : undefined))
    renderRoutes([{ path: '/register-premium', element: <RegisterPremiumPage /> }], '/register-premium')
    expect(await screen.findByRole('heading', { name: 'Criar conta Premium' })).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText('Nome'), 'Caio')
    await userEvent.type(screen.getByLabelText('Sobrenome'), 'Reis')
    await userEvent.type(screen.getByLabelText('Email'), 'caio@exemplo.com')
    await userEvent.type(screen.getByLabelText('Senha'), 'Vet#Clube2026x')
    await userEvent.click(screen.getByRole('button', { name: 'Criar conta e assinar' }))
    expect(await screen.findByText('Ao confirmar, você entra e segue direto para o pagamento do Premium mensal.')).toBeInTheDocument()
    expect(calls.find((c) => c.path === '/api/auth/signup')?.body).toMatchObject({ email: 'caio@exemplo.com', intent: 'premium_monthly' })
  })

  it('its confirmation link signs in and goes on to the monthly checkout', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {})
    const calls = serve((c) => {
      if (c.path === '/api/auth/confirm') {
        // The server sets the session cookies with this answer.
        document.cookie = 'vc_csrf=tok; Path=/'
        return { status: 200, body: { message: 'Email confirmado com sucesso!', signed_in: true } }
      }
      if (c.path === '/api/auth/session') return { status: 200, body: { user: { id: 'u9', email: 'caio@exemplo.com', provider: 'email', roles: ['user'], created_at: '' } } }
      if (c.path === '/api/billing/checkout') return { status: 200, body: { url: 'https://checkout.stripe.test/c/cs_reg' } }
      return undefined
    })
    renderRoutes([{ path: '/confirmar-email', element: <ConfirmEmailPage /> }], '/confirmar-email?token=abc&continuar=assinatura')
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/cs_reg'))
    expect(calls.find((c) => c.path === '/api/billing/checkout')?.body).toEqual({ billing_cycle: 'monthly' })
    const order = calls.map((c) => c.path)
    expect(order.indexOf('/api/auth/confirm')).toBeLessThan(order.lastIndexOf('/api/auth/session'))
  })

  it('a plain confirmation link does not sign in nor start a checkout', async () => {
    const calls = serve((c) => (c.path === '/api/auth/confirm' ? { status: 200, body: { message: 'Email confirmado com sucesso!' } } : undefined))
    renderRoutes([{ path: '/confirmar-email', element: <ConfirmEmailPage /> }], '/confirmar-email?token=abc')
    expect(await screen.findByRole('link', { name: 'Ir para o login' })).toBeInTheDocument()
    expect(calls.some((c) => c.path === '/api/billing/checkout')).toBe(false)
  })
})
