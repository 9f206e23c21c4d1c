import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { installBrowserGaps, renderRoutes } from '@/test/renderRoutes'
import type { Payment } from '../api'
import { fakeBillingApi } from '../test/fakeBillingApi'
import PaymentMonitoringPage from './PaymentMonitoringPage'
import PaymentStatusPage from './PaymentStatusPage'
import TestStripePage from './TestStripePage'

const payments: Payment[] = [
  { id: 'ch_2', kind: 'attempt', status: 'failed', amount_cents: 2990, at: '2026-11-28T15:00:00Z', description: 'Cartão recusado', hosted_url: 'https://invoice.stripe.test/in_2' },
  { id: 're_1', kind: 'refund', status: 'succeeded', amount_cents: 2990, at: '2026-11-20T12:00:00Z', description: null },
  { id: 'in_1', kind: 'invoice', status: 'paid', amount_cents: 2990, at: '2026-10-28T12:00:00Z', description: 'Premium Mensal' },
]

function render(path: string) {
  return renderRoutes(
    [
      { path: '/payment-status', element: <PaymentStatusPage /> },
      { path: '/payment-monitoring', element: <PaymentMonitoringPage /> },
      { path: '/test-stripe', element: <TestStripePage /> },
    ],
    path,
    { noRetry: true },
  )
}

beforeEach(() => installBrowserGaps())
afterEach(() => vi.unstubAllGlobals())

describe('/payment-status', () => {
  it('says the latest payment in words and what to do next', async () => {
    fakeBillingApi((c) => (c.path === '/api/billing/payments' ? { status: 200, body: { payments } } : undefined))
    render('/payment-status')
    expect(await screen.findByRole('heading', { name: 'Pagamento recusado' })).toBeInTheDocument()
    expect(screen.getByText('Atualize a sua forma de pagamento: tentaremos cobrar de novo.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Atualizar pagamento' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Abrir fatura' })).toHaveAttribute('href', 'https://invoice.stripe.test/in_2')
  })

  it('with no payment yet, points to the plans', async () => {
    fakeBillingApi((c) => (c.path === '/api/billing/payments' ? { status: 200, body: { payments: [] } } : undefined))
    render('/payment-status')
    expect(await screen.findByText('Nenhum pagamento registrado ainda.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ver Planos' })).toHaveAttribute('href', '/pricing')
  })
})

describe('/payment-monitoring', () => {
  it('lists attempts, failures and refunds, newest first', async () => {
    fakeBillingApi((c) => (c.path === '/api/billing/payments' ? { status: 200, body: { payments } } : undefined))
    render('/payment-monitoring')
    const rows = (await screen.findAllByRole('row')).slice(1)
    expect(rows).toHaveLength(3)
    expect(within(rows[0]!).getByText('Tentativa de cobrança')).toBeInTheDocument()
    expect(within(rows[0]!).getByText('Pagamento recusado')).toBeInTheDocument()
    expect(within(rows[1]!).getByText('Reembolso')).toBeInTheDocument()
    expect(within(rows[1]!).getByText(/− R\$\s29,90/)).toBeInTheDocument()
    expect(within(rows[2]!).getByText('Pagamento confirmado')).toBeInTheDocument()
  })
})

describe('/test-stripe', () => {
  const diagnostics = {
    configured: { secret_key: true, webhook_secret: true, price_monthly: true, price_yearly: false },
    mode: 'fake',
    api_version: '2025-08-27.basil',
    api_reachable: true,
    api_latency_ms: 12,
    webhook_url: 'http://127.0.0.1:8080/api/billing/webhook',
    last_events: [{ id: 'evt_1', type: 'invoice.paid', status: 'applied', received_at: '2026-11-28T15:00:00Z', lag_ms: 1500 }],
  }

  it('shows the configuration, the API and the last webhook events to a super admin', async () => {
    fakeBillingApi((c) => (c.path === '/api/billing/diagnostics' ? { status: 200, body: diagnostics } : undefined), { roles: ['user', 'super_admin'] })
    render('/test-stripe')
    expect(await screen.findByText('Simulado (Stripe local)')).toBeInTheDocument()
    const item = (label: string) => screen.getAllByRole('listitem').find((li) => li.textContent?.startsWith(label))
    expect(item('Preço anual configurado')).toHaveTextContent('Preço anual configurado: não')
    expect(item('API da Stripe acessível')).toHaveTextContent('API da Stripe acessível: sim')
    const row = screen.getByRole('row', { name: /invoice\.paid/ })
    expect(row).toHaveTextContent('aplicado')
    expect(row).toHaveTextContent('1,5 s')
    expect(screen.getByText('2025-08-27.basil')).toBeInTheDocument()
  })

  it('anyone else gets Acesso restrito and no diagnostics call', async () => {
    const api = fakeBillingApi(() => undefined, { roles: ['user', 'premium'] })
    render('/test-stripe')
    expect(await screen.findByText('Acesso restrito')).toBeInTheDocument()
    expect(api.calls.some((c) => c.path === '/api/billing/diagnostics')).toBe(false)
  })
})
