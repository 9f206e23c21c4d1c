import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Toaster } from '@/components/ui/Toaster'
import { dismissToast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api'
import { createQueryClient } from '@/lib/queryClient'
import { REFERRAL_STORAGE_KEY, storedReferralCode } from '@/lib/referral'
import { captureReferral, processKeptReferral } from './capture'
import type { ReferralDashboard } from './api'
import IndiquePage from './pages/IndiquePage'
import { emailUrl, whatsappUrl } from './share'

afterEach(() => {
  localStorage.clear()
  sessionStorage.clear()
  vi.unstubAllGlobals()
  dismissToast()
})

describe('referral capture', () => {
  it('counts one click per session and code, and the first code wins', async () => {
    const send = vi.fn(async (_code: string, _session: string, _device: string) => ({ counted: true }))
    for (let i = 0; i < 100; i++) await captureReferral('ANA12345', send)
    expect(send).toHaveBeenCalledTimes(1)
    expect(send.mock.calls[0]?.[0]).toBe('ANA12345')
    // A second code in the same 30 days is clicked (counted for its owner) but not kept.
    expect(await captureReferral('BIA67890', send)).toBe('ANA12345')
    expect(send).toHaveBeenCalledTimes(2)
    expect(storedReferralCode()).toBe('ANA12345')
    // A new browser session counts again.
    sessionStorage.clear()
    await captureReferral('ANA12345', send)
    expect(send).toHaveBeenCalledTimes(3)
  })

  it('after a Google sign-in sends the kept code once and drops it on a definitive answer', async () => {
    localStorage.setItem(REFERRAL_STORAGE_KEY, JSON.stringify({ code: 'ANA12345', at: Date.now() }))
    const ok = vi.fn(async () => ({ recorded: true, message: 'Conta criada com sucesso! Indicação processada.' }))
    expect(await processKeptReferral(ok)).toBe('Conta criada com sucesso! Indicação processada.')
    expect(ok).toHaveBeenCalledWith('ANA12345', expect.any(String))
    expect(storedReferralCode()).toBeNull()
    expect(await processKeptReferral(ok)).toBeNull()
    expect(ok).toHaveBeenCalledTimes(1)

    localStorage.setItem(REFERRAL_STORAGE_KEY, JSON.stringify({ code: 'ANA12345', at: Date.now() }))
    const offline = vi.fn(async () => {
      throw new ApiError(0, 'ENETWORK', 'sem rede')
    })
    expect(await processKeptReferral(offline)).toBeNull()
    expect(storedReferralCode()).toBe('ANA12345') // kept for the next try
    const old = vi.fn(async () => {
      throw new ApiError(409, 'conflict', 'Indicações valem apenas para contas novas.')
    })
    expect(await processKeptReferral(old)).toBeNull()
    expect(storedReferralCode()).toBeNull()
  })

  it('builds the share links', () => {
    expect(whatsappUrl('https://x.dev/i/ABC')).toMatch(/^https:\/\/wa\.me\/\?text=.*https%3A%2F%2Fx\.dev%2Fi%2FABC$/)
    expect(emailUrl('https://x.dev/i/ABC')).toContain('mailto:?subject=Convite%20para%20o%20VetClube&body=')
  })
})

const dashboard: ReferralDashboard = {
  code: 'K7M2QX9P',
  link: 'http://localhost/i/K7M2QX9P',
  totals: { cliques: 12, cadastros: 3, assinaturas: 2, recompensas: 1, vetcoins_ganhos: 500 },
  settings: { referrer_points: 500, referee_points: 200, referrer_free_months: 1, hold_days: 14, window_days: 60, cap_month: 10, cap_total: 50 },
  referrals: [
    { id: 'r1', name: 'Bia L.', state: 'em_carencia', state_text: 'Em carência', reward_at: '2026-12-12T15:00:00Z', created_at: '2026-11-20T15:00:00Z' },
    { id: 'r2', name: 'Caio R.', state: 'recompensada', state_text: 'Recompensa creditada', created_at: '2026-10-01T15:00:00Z' },
    {
      id: 'r3',
      name: 'Duda M.',
      state: 'limite',
      state_text: 'Limite de recompensas atingido',
      reason_text: 'limite mensal de indicações recompensadas atingido',
      created_at: '2026-11-21T15:00:00Z',
    },
  ],
}

function renderPage() {
  const calls: { path: string; headers: Headers }[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost')
      calls.push({ path: url.pathname, headers: new Headers(init?.headers) })
      if (url.pathname === '/api/referrals/me') {
        return new Response(JSON.stringify(dashboard), { status: 200, headers: { 'Content-Type': 'application/json' } })
      }
      return new Response('{}', { status: 404, headers: { 'Content-Type': 'application/json' } })
    }),
  )
  const router = createMemoryRouter([{ path: '/indique-e-ganhe', element: <IndiquePage /> }], { initialEntries: ['/indique-e-ganhe'] })
  render(
    <QueryClientProvider client={createQueryClient()}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  )
  return calls
}

describe('IndiquePage', () => {
  it('shows the link, code, share buttons, QR, steps, totals and the referrals in words', async () => {
    const calls = renderPage()
    expect(await screen.findByTestId('referral-code')).toHaveTextContent('K7M2QX9P')
    expect(screen.getByRole('textbox', { name: 'Seu link de indicação' })).toHaveValue('http://localhost/i/K7M2QX9P')
    expect(screen.getByRole('link', { name: /WhatsApp/ })).toHaveAttribute('href', whatsappUrl('http://localhost/i/K7M2QX9P'))
    expect(screen.getByRole('link', { name: /E-mail/ })).toHaveAttribute('href', emailUrl('http://localhost/i/K7M2QX9P'))
    expect(screen.getByRole('img', { name: 'QR code do seu link de indicação' })).toHaveAttribute('src', '/api/referrals/me/qr.svg')
    expect(within(screen.getByRole('list', { name: 'Como funciona' })).getAllByRole('listitem')).toHaveLength(3)
    expect(screen.getByText(/Após 14 dias de carência, você ganha 500 VetCoins e 1 mês grátis; seu amigo ganha 200 VetCoins/)).toBeInTheDocument()
    const totals = screen.getByLabelText('Seus números')
    const expected: [string, string][] = [
      ['Cliques', '12'],
      ['Cadastros', '3'],
      ['Assinaturas', '2'],
      ['Recompensas', '1'],
      ['VetCoins ganhos', '500'],
    ]
    for (const [label, value] of expected) {
      expect(within(totals).getByText(label).nextSibling).toHaveTextContent(value)
    }
    const rows = within(screen.getByRole('list', { name: 'Suas indicações' })).getAllByRole('listitem')
    expect(rows).toHaveLength(3)
    expect(rows[0]).toHaveTextContent('Bia L.')
    expect(rows[0]).toHaveTextContent('Em carência')
    expect(rows[0]).toHaveTextContent('Recompensa em 12/12/2026')
    expect(rows[1]).not.toHaveTextContent('Recompensa em')
    expect(rows[2]).toHaveTextContent('Motivo: limite mensal de indicações recompensadas atingido')
    // The device id goes with the dashboard request (the anti-fraud checks).
    expect(calls.find((c) => c.path === '/api/referrals/me')?.headers.get('X-Device-Id')).toMatch(/^[0-9a-f]{32}$/)
  })

  it('copies the link', async () => {
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true })
    renderPage()
    await userEvent.click(await screen.findByRole('button', { name: /Copiar link/ }))
    expect(writeText).toHaveBeenCalledWith('http://localhost/i/K7M2QX9P')
    expect(await screen.findByText('Link copiado!')).toBeInTheDocument()
  })
})
