import { screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { installBrowserGaps, renderRoutes } from '@/test/renderRoutes'
import { fakeBillingApi, premiumView, trialView } from '../test/fakeBillingApi'
import SubscriptionSuccessPage from './SubscriptionSuccessPage'

function renderSuccess() {
  return renderRoutes([{ path: '/subscription-success', element: <SubscriptionSuccessPage /> }], '/subscription-success?session_id=cs_test_1', { noRetry: true })
}

beforeEach(() => installBrowserGaps())
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('/subscription-success', () => {
  it('syncs with the session id on arrival and shows the plan at once', async () => {
    const api = fakeBillingApi((c) =>
      c.path === '/api/billing/sync' ? { status: 200, body: { ...premiumView, checkout_status: 'complete', payment_status: 'paid' } } : undefined,
    )
    const { client } = renderSuccess()
    expect(await screen.findByText('Você agora é Premium Anual.')).toBeInTheDocument()
    expect(api.posts('/api/billing/sync').map((c) => c.body)).toEqual([{ session_id: 'cs_test_1' }])
    // The app's subscription view follows (the menu hides Plans).
    expect(client.getQueryData(['subscription'])).toMatchObject({ is_premium: true })
  })

  it('a boleto still processing says so, then updates when Stripe confirms', async () => {
    let paid = false
    const api = fakeBillingApi((c) =>
      c.path === '/api/billing/sync'
        ? { status: 200, body: paid ? { ...premiumView, plan: 'monthly', checkout_status: 'complete', payment_status: 'paid' } : { ...trialView, checkout_status: 'complete', payment_status: 'unpaid' } }
        : undefined,
    )
    renderSuccess()
    expect(await screen.findByRole('heading', { name: 'Pagamento em processamento' })).toBeInTheDocument()
    expect(screen.getByText(/boletos levam até 3 dias úteis/)).toBeInTheDocument()
    paid = true
    expect(await screen.findByText('Você agora é Premium Mensal.', {}, { timeout: 8000 })).toBeInTheDocument()
    expect(api.posts('/api/billing/sync').length).toBeGreaterThanOrEqual(2)
  }, 15_000)

  it('a visitor without a session is asked to sign in, and nothing is synced', async () => {
    document.cookie = 'vc_csrf=; Path=/; Max-Age=0'
    const api = fakeBillingApi()
    renderSuccess()
    expect(await screen.findByRole('link', { name: 'Entrar' })).toHaveAttribute('href', '/login')
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Obrigado por assinar o VetClube!')
    expect(api.posts('/api/billing/sync')).toHaveLength(0)
  })
})
