import { act, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { installBrowserGaps, renderRoutes } from '@/test/renderRoutes'
import { browser } from '../checkout'
import { fakeBillingApi, premiumView } from '../test/fakeBillingApi'
import { DunningBanner } from './DunningBanner'

const failed = { ...premiumView, billing_status: 'past_due', payment_failed: true, grace_until: '2026-12-05T12:00:00Z' }

beforeEach(() => installBrowserGaps())
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('dunning banner', () => {
  it('shows while the payment failed, with the grace end and a portal link; goes away once paid', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => {})
    fakeBillingApi((c) => (c.path === '/api/billing/portal' ? { status: 200, body: { url: 'https://billing.stripe.test/p/3' } } : undefined), { view: failed })
    const { client } = renderRoutes([{ path: '/', element: <DunningBanner /> }], '/')
    const banner = await screen.findByRole('alert')
    expect(banner).toHaveTextContent('Não conseguimos cobrar a sua assinatura')
    expect(banner).toHaveTextContent('acesso até 5 de dezembro de 2026')
    await userEvent.click(screen.getByRole('button', { name: 'Atualizar pagamento' }))
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://billing.stripe.test/p/3'))

    act(() => client.setQueryData(['subscription'], { ...premiumView }))
    await vi.waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument())
  })

  it('stays hidden for a member in good standing', async () => {
    const api = fakeBillingApi(() => undefined, { view: premiumView })
    renderRoutes([{ path: '/', element: <DunningBanner /> }], '/')
    await vi.waitFor(() => expect(api.calls.some((c) => c.path === '/api/subscription')).toBe(true))
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })
})
