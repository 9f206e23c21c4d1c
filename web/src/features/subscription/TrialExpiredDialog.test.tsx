import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useSubscription } from './api'
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
afterEach(() => vi.unstubAllGlobals())

function answer(body: unknown) {
  // A fresh Response per call: a body is read once.
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })))
}

describe('TrialExpiredDialog', () => {
  it('shows its texts when the trial expired, and only once per session', async () => {
    answer(view(true))
    const first = renderDialog()
    expect(await screen.findByText('Trial Premium Expirado')).toBeInTheDocument()
    for (const text of ['Pacientes ilimitados', 'Todos os desafios profissionais', 'Consultas ilimitadas à IA', 'Todos os cursos e certificados']) {
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
})
