import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useSubscription } from './api'
import { browser } from './checkout'
import { TrialExpiredDialog } from './TrialExpiredDialog'

function view(trialExpired: boolean, isPremium = false) {
  return { subscription_status: 'trial', subscription_tier: null, trial_ends_at: '2026-01-01T00:00:00Z', is_premium: isPremium, trial_active: false, trial_expired: trialExpired, days_left: 0 }
}

// The subscription query's status, beside the dialog: both observe the same
// query and render its answer in the same commit, so once this reads 'success'
// the dialog has decided whether to open.
function QueryStatus() {
  return <output>{useSubscription().status}</output>
}

function renderDialog() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <>
          <TrialExpiredDialog />
          <QueryStatus />
        </>
      ),
    },
    { path: '/pricing', element: <p>Página de planos</p> },
  ])
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
}

beforeEach(() => {
  sessionStorage.clear()
  // jsdom has no <dialog> modal API.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true
  }
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false
  }
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

function answer(body: unknown) {
  // A fresh Response per call: a body is read once.
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })))
}

describe('TrialExpiredDialog', () => {
  it('shows its texts when the trial expired, and only once per session', async () => {
    answer(view(true))
    const first = renderDialog()
    expect(await screen.findByText('Trial Premium Expirado')).toBeInTheDocument()
    for (const text of ['Pacientes ilimitados', 'Todos os desafios profissionais', 'Consultas à IA sem o limite do teste', 'Todos os cursos e certificados']) {
      expect(screen.getByText(text)).toBeInTheDocument()
    }
    await userEvent.click(screen.getByRole('button', { name: 'Depois' }))
    expect(screen.queryByText('Trial Premium Expirado')).not.toBeInTheDocument()
    first.unmount()

    renderDialog()
    await screen.findByText('success')
    expect(screen.queryByText('Trial Premium Expirado')).not.toBeInTheDocument()
  })

  it('"Ver Planos" goes to /pricing', async () => {
    answer(view(true))
    renderDialog()
    await userEvent.click(await screen.findByRole('button', { name: 'Ver Planos' }))
    expect(await screen.findByText('Página de planos')).toBeInTheDocument()
  })

  it.each([
    ['an active trial', view(false)],
    ['a premium user', view(true, true)],
  ])('stays closed for %s', async (_, body) => {
    answer(body)
    renderDialog()
    await screen.findByText('success')
    expect(screen.queryByText('Trial Premium Expirado')).not.toBeInTheDocument()
    expect(fetch).toHaveBeenCalled()
  })

  it('"Upgrade Agora" opens a tab inside the click and sends it to the monthly checkout', async () => {
    const calls: { url: string; body: unknown }[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined })
        const body = url === '/api/billing/checkout' ? { url: 'https://checkout.stripe.test/c/cs_m' } : view(true)
        return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })
      }),
    )
    const tab = { opener: {} as unknown, closed: false, location: { href: '' }, close: vi.fn() }
    const open = vi.spyOn(browser, 'open').mockImplementation(() => tab as unknown as Window)
    renderDialog()
    await userEvent.click(await screen.findByRole('button', { name: 'Upgrade Agora' }))
    // The tab exists before the server answers (popup blockers allow only that).
    expect(open).toHaveBeenCalledTimes(1)
    await vi.waitFor(() => expect(tab.location.href).toBe('https://checkout.stripe.test/c/cs_m'))
    expect(tab.opener).toBeNull()
    expect(calls.find((c) => c.url === '/api/billing/checkout')?.body).toEqual({ billing_cycle: 'monthly' })
  })

  it('"Upgrade Agora" closes the tab again when the checkout is refused', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url === '/api/billing/checkout'
          ? new Response(JSON.stringify({ error: { code: 'ECONFLICT', message: 'Você já tem uma assinatura ativa.' } }), { status: 409 })
          : new Response(JSON.stringify(view(true)), { status: 200 }),
      ),
    )
    const tab = { opener: null, closed: false, location: { href: '' }, close: vi.fn() }
    vi.spyOn(browser, 'open').mockImplementation(() => tab as unknown as Window)
    renderDialog()
    await userEvent.click(await screen.findByRole('button', { name: 'Upgrade Agora' }))
    await vi.waitFor(() => expect(tab.close).toHaveBeenCalled())
    expect(tab.location.href).toBe('')
  })
})
