import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { installBrowserGaps, renderRoutes } from '@/test/renderRoutes'
import type { SubscriptionDetails } from '../api'
import { browser } from '../checkout'
import { fakeBillingApi, premiumView, trialView } from '../test/fakeBillingApi'
import SubscriptionPage from './SubscriptionPage'

const details = (over: Partial<SubscriptionDetails> = {}): SubscriptionDetails => ({
  view: premiumView,
  plan: 'yearly',
  next_charge: { amount_cents: 29900, at: '2027-11-28T12:00:00Z' },
  payment_method: { brand: 'visa', last4: '4242' },
  invoices: [
    { id: 'in_1', number: 'VC-0001', status: 'paid', amount_cents: 29900, created: '2026-11-28T12:00:00Z', pdf_url: 'https://files.stripe.test/in_1.pdf', hosted_url: 'https://invoice.stripe.test/in_1' },
  ],
  ...over,
})

function renderPage(path = '/subscription') {
  return renderRoutes(
    [
      { path: '/subscription', element: <SubscriptionPage /> },
      { path: '/subscription-management', element: <SubscriptionPage /> },
      { path: '/pricing', element: <p>Planos</p> },
    ],
    path,
    { noRetry: true },
  )
}

let assign: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  installBrowserGaps()
  assign = vi.spyOn(browser, 'assign').mockImplementation(() => {})
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('/subscription', () => {
  it('shows the plan, the status in words, the next charge, the card and the invoices with their PDF', async () => {
    fakeBillingApi((c) => (c.path === '/api/billing/subscription' ? { status: 200, body: details() } : undefined))
    renderPage()
    expect(await screen.findByRole('heading', { name: 'Premium Anual' })).toBeInTheDocument()
    expect(screen.getByText('ativa')).toBeInTheDocument()
    expect(screen.getByText(/R\$\s299,00 em 28 de novembro de 2027/)).toBeInTheDocument()
    expect(screen.getByText('Visa terminado em 4242')).toBeInTheDocument()
    const row = screen.getByRole('row', { name: /VC-0001/ })
    expect(within(row).getByText('Paga')).toBeInTheDocument()
    expect(within(row).getByRole('link', { name: /PDF/ })).toHaveAttribute('href', 'https://files.stripe.test/in_1.pdf')
  })

  it('/subscription-management is the same page; Cancelar assinatura goes through the portal', async () => {
    const api = fakeBillingApi((c) => {
      if (c.path === '/api/billing/subscription') return { status: 200, body: details() }
      if (c.path === '/api/billing/portal') return { status: 200, body: { url: 'https://billing.stripe.test/p/2' } }
      return undefined
    })
    renderPage('/subscription-management')
    await userEvent.click(await screen.findByRole('button', { name: 'Cancelar assinatura' }))
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/p/2'))
    expect(api.posts('/api/billing/portal')).toHaveLength(1)
  })

  it.each([
    ['past_due', { ...premiumView, billing_status: 'past_due', payment_failed: true, grace_until: '2026-12-05T12:00:00Z' }, 'pagamento pendente — acesso até 5 de dezembro de 2026'],
    ['cancel at period end', { ...premiumView, cancel_at_period_end: true }, 'cancelada — acesso até 28 de novembro de 2027'],
    ['trialing on Stripe', { ...premiumView, billing_status: 'trialing', current_period_end: '2026-12-12T12:00:00Z' }, 'em teste até 12 de dezembro de 2026'],
  ])('says %s in words', async (_, view, words) => {
    fakeBillingApi((c) => (c.path === '/api/billing/subscription' ? { status: 200, body: details({ view }) } : undefined))
    renderPage()
    expect(await screen.findByText(words)).toBeInTheDocument()
  })

  it('a cancelled-at-period-end subscription offers Reativar and no next charge', async () => {
    fakeBillingApi((c) => (c.path === '/api/billing/subscription' ? { status: 200, body: details({ view: { ...premiumView, cancel_at_period_end: true } }) } : undefined))
    renderPage()
    expect(await screen.findByRole('button', { name: 'Reativar assinatura' })).toBeInTheDocument()
    expect(screen.getByText('Nenhuma cobrança prevista')).toBeInTheDocument()
  })

  it('a member without a subscription is sent to the plans', async () => {
    fakeBillingApi((c) =>
      c.path === '/api/billing/subscription' ? { status: 200, body: { view: trialView, plan: null, next_charge: null, payment_method: null, invoices: [] } } : undefined,
    )
    renderPage()
    expect(await screen.findByRole('heading', { name: 'Sem assinatura Premium' })).toBeInTheDocument()
    expect(screen.getByText('Nenhuma fatura ainda.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ver Planos' })).toHaveAttribute('href', '/pricing')
    expect(screen.queryByRole('button', { name: 'Gerenciar assinatura' })).not.toBeInTheDocument()
  })
})
