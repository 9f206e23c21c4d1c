import { vi } from 'vitest'
import type { Subscription } from '../api'

export interface Call {
  method: string
  path: string
  body: unknown
}

export type Answer = { status: number; body?: unknown } | undefined

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

export const trialView: Subscription = {
  subscription_status: 'trial',
  subscription_tier: null,
  trial_ends_at: '2026-12-05T12:00:00Z',
  is_premium: false,
  trial_active: true,
  trial_expired: false,
  days_left: 5,
  plan: null,
  billing_status: null,
  current_period_end: null,
  cancel_at_period_end: false,
  grace_until: null,
  payment_failed: false,
}

export const premiumView: Subscription = {
  ...trialView,
  subscription_status: 'active',
  subscription_tier: 'premium_yearly',
  trial_ends_at: null,
  is_premium: true,
  trial_active: false,
  days_left: 0,
  plan: 'yearly',
  billing_status: 'active',
  current_period_end: '2027-11-28T12:00:00Z',
}

export const plans = {
  currency: 'BRL',
  plans: [
    { cycle: 'monthly', price_cents: 2990, interval: 'month', price_id: 'price_m' },
    { cycle: 'yearly', price_cents: 29900, interval: 'year', price_id: 'price_y' },
  ],
  yearly_saving_percent: 17,
  boleto: true,
  pix: false,
}

export const user = (roles: string[] = ['user']) => ({ user: { id: 'u1', email: 'ana@exemplo.com', provider: 'email', roles, created_at: '' } })

/**
 * The billing endpoints at the network layer (fetch): `answer` decides each
 * call (undefined → the defaults below, else 404), and every call is kept.
 */
export function fakeBillingApi(answer: (c: Call) => Answer = () => undefined, { view = trialView, roles = ['user'] }: { view?: Subscription; roles?: string[] } = {}) {
  const calls: Call[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost')
    const method = init?.method ?? 'GET'
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    const call = { method, path: url.pathname, body }
    calls.push(call)
    const a = answer(call)
    if (a) return json(a.status, a.body)
    if (call.path === '/api/auth/session') return json(200, user(roles))
    if (call.path === '/api/subscription') return json(200, view)
    if (call.path === '/api/billing/plans') return json(200, plans)
    if (call.path === '/api/billing/check') return json(200, view)
    return json(404, { error: { code: 'ENOTFOUND', message: 'Não encontrado' } })
  })
  vi.stubGlobal('fetch', fetchMock)
  return { calls, fetchMock, posts: (path: string) => calls.filter((c) => c.method === 'POST' && c.path === path) }
}
