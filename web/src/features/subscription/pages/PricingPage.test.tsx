import { screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { installBrowserGaps, renderRoutes } from '@/test/renderRoutes'
import { browser } from '../checkout'
import { fakeBillingApi, premiumView } from '../test/fakeBillingApi'
import PricingPage from './PricingPage'

function renderPricing() {
  return renderRoutes([{ path: '/pricing', element: <PricingPage /> }], '/pricing', { noRetry: true })
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

describe('/pricing', () => {
  it('shows the plans, the yearly saving and the benefits; Assinar on yearly goes to the checkout in this tab', async () => {
    const api = fakeBillingApi((c) => (c.path === '/api/billing/checkout' ? { status: 200, body: { url: 'https://checkout.stripe.test/c/cs_1' } } : undefined))
    renderPricing()
    expect(await screen.findByText('Premium grátis: 5 dias restantes')).toBeInTheDocument()
    for (const b of ['Pacientes ilimitados', 'Todos os desafios profissionais', 'Consultas à IA sem o limite do teste', 'Todos os cursos e certificados']) {
      expect(screen.getByText(b)).toBeInTheDocument()
    }
    expect(await screen.findByText(/R\$\s29,90/)).toBeInTheDocument()
    expect(screen.getByText('Economize 17%')).toBeInTheDocument()

    await userEvent.click(screen.getByRole('radio', { name: /Anual/ }))
    expect(screen.getByText(/R\$\s299,00/)).toBeInTheDocument()
    expect(screen.getByText(/equivale a R\$\s24,92 por mês/)).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Assinar' }))
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/cs_1'))
    expect(api.posts('/api/billing/checkout').map((c) => c.body)).toEqual([{ billing_cycle: 'yearly' }])
  })

  it('boleto asks for a CPF with valid check digits before calling the server', async () => {
    const api = fakeBillingApi((c) => (c.path === '/api/billing/checkout' ? { status: 200, body: { url: 'https://checkout.stripe.test/c/cs_2' } } : undefined))
    renderPricing()
    await userEvent.click(await screen.findByRole('radio', { name: 'Boleto bancário' }))
    expect(screen.queryByRole('radio', { name: 'Pix' })).not.toBeInTheDocument()
    const cpf = screen.getByLabelText('CPF')
    await userEvent.type(cpf, '52998224735')
    expect(cpf).toHaveValue('529.982.247-35')
    await userEvent.click(screen.getByRole('button', { name: 'Assinar' }))
    expect(await screen.findByText('Informe um CPF válido.')).toBeInTheDocument()
    expect(api.posts('/api/billing/checkout')).toHaveLength(0)

    await userEvent.clear(cpf)
    await userEvent.type(cpf, '52998224725')
    await userEvent.click(screen.getByRole('button', { name: 'Assinar' }))
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/cs_2'))
    expect(api.posts('/api/billing/checkout')[0]?.body).toEqual({ billing_cycle: 'monthly', payment_method: 'boleto', cpf: '52998224725' })
  })

  it("shows the server's CPF refusal under the field", async () => {
    fakeBillingApi((c) =>
      c.path === '/api/billing/checkout' ? { status: 422, body: { error: { code: 'EINVALID', message: 'Dados inválidos.', fields: { cpf: 'CPF inválido.' } } } } : undefined,
    )
    renderPricing()
    await userEvent.click(await screen.findByRole('radio', { name: 'Boleto bancário' }))
    await userEvent.type(screen.getByLabelText('CPF'), '52998224725')
    await userEvent.click(screen.getByRole('button', { name: 'Assinar' }))
    expect(await screen.findByText('CPF inválido.')).toBeInTheDocument()
  })

  it('Pix is offered only when the plans say so', async () => {
    fakeBillingApi((c) =>
      c.path === '/api/billing/plans'
        ? { status: 200, body: { currency: 'BRL', plans: [{ cycle: 'monthly', price_cents: 2990, interval: 'month', price_id: 'p' }], yearly_saving_percent: 0, boleto: false, pix: true } }
        : undefined,
    )
    renderPricing()
    expect(await screen.findByRole('radio', { name: 'Pix' })).toBeInTheDocument()
    expect(screen.queryByRole('radio', { name: 'Boleto bancário' })).not.toBeInTheDocument()
  })

  it('409 (already subscribed) shows the message and opens the portal', async () => {
    const api = fakeBillingApi((c) => {
      if (c.path === '/api/billing/checkout') return { status: 409, body: { error: { code: 'ECONFLICT', message: 'Você já tem uma assinatura ativa.' }, portal_url: 'https://portal' } }
      if (c.path === '/api/billing/portal') return { status: 200, body: { url: 'https://billing.stripe.test/p/1' } }
      return undefined
    })
    renderPricing()
    await userEvent.click(await screen.findByRole('button', { name: 'Assinar' }))
    const alert = await screen.findByRole('alert')
    expect(within(alert).getByText('Você já tem uma assinatura ativa.')).toBeInTheDocument()
    await userEvent.click(within(alert).getByRole('button', { name: 'Gerenciar assinatura' }))
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/p/1'))
    expect(api.posts('/api/billing/portal')).toHaveLength(1)
  })

  it('a premium member sees the plan and Gerenciar assinatura, no checkout', async () => {
    fakeBillingApi(() => undefined, { view: premiumView })
    renderPricing()
    expect(await screen.findByRole('heading', { name: 'Seu plano: Premium Anual' })).toBeInTheDocument()
    expect(screen.getByText(/Situação da assinatura: ativa\./)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Gerenciar assinatura' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Assinar' })).not.toBeInTheDocument()
  })
})
