import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { AdminContext, RecordContextProvider, type AuthProvider } from 'react-admin'
import { QueryClient } from '@tanstack/react-query'
import { dataProvider } from '../providers/dataProvider'
import { i18nProvider } from '../providers/i18nProvider'
import { mayAccessResource } from '../providers/authProvider'
import { clearCookies, scriptFetch, setCookie } from '../providers/testServer'
import { ReprocessButton, EventStatusChip } from './EventList'
import { MetricsTable } from './MetricsCard'
import { SubscriptionStatusChip } from './SubscriptionList'
import { SubscriptionTimeline } from './Timeline'
import { lag, monthLabel, percent, type AdminEvent, type AdminSubscription } from './types'

const event = (over: Partial<AdminEvent> = {}): AdminEvent => ({
  id: 'evt_1',
  type: 'invoice.payment_failed',
  status: 'failed',
  attempts: 3,
  lag_ms: 1500,
  received_at: '2026-11-28T12:00:00Z',
  error: 'timeout',
  ...over,
})

const sub = (over: Partial<AdminSubscription> = {}): AdminSubscription => ({
  id: 'u1',
  user_id: '6f1c1b1e-0000-4000-8000-000000000001',
  email: 'premium@vetclube.dev',
  name: 'Paula Premium',
  status: 'active',
  plan: 'yearly',
  current_period_end: '2027-11-28T12:00:00Z',
  cancel_at_period_end: false,
  ...over,
})

beforeEach(() => {
  clearCookies()
  setCookie('vc_csrf=csrf1; path=/')
})
afterEach(() => vi.unstubAllGlobals())

;(globalThis as any).IS_REACT_ACT_ENVIRONMENT = true
let root: Root | null = null
afterEach(() => {
  act(() => root?.unmount())
  root = null
  document.body.innerHTML = ''
})

const asRoles = (roles: string[]): AuthProvider => ({
  login: async () => {},
  logout: async () => {},
  checkAuth: async () => {},
  checkError: async () => {},
  getPermissions: async () => roles,
})

async function renderWithAdmin(node: ReactNode, roles = ['user', 'super_admin']) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const container = document.createElement('div')
  document.body.appendChild(container)
  root = createRoot(container)
  await act(async () => {
    root!.render(
      <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} authProvider={asRoles(roles)} queryClient={queryClient}>
        {node}
      </AdminContext>,
    )
  })
  return container
}

const texts = () => Array.from(document.body.querySelectorAll('*')).filter((e) => e.children.length === 0).map((e) => e.textContent ?? '')
const button = (label: string, scope: ParentNode = document.body) => Array.from(scope.querySelectorAll('button')).find((b) => b.textContent === label)

async function until(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 10))
    })
  }
  expect(check()).toBe(true)
}

describe('billing in the backoffice: rules and words', () => {
  it('is for super admins only', () => {
    expect(mayAccessResource(['user', 'super_admin'], 'billing/subscriptions')).toBe(true)
    expect(mayAccessResource(['user', 'editor'], 'billing/subscriptions')).toBe(false)
    expect(mayAccessResource(['user', 'moderador'], 'billing/events')).toBe(false)
  })

  it('formats months, rates and lags in pt-BR', () => {
    expect(monthLabel('2026-11')).toMatch(/nov\.? de 2026/)
    expect(percent(0.0432)).toBe('4,3%')
    expect(lag(1500)).toBe('1,5 s')
    expect(lag(320)).toBe('320 ms')
    expect(lag(null)).toBe('—')
  })
})

describe('billing data', () => {
  it('lists subscriptions by status and plan through ra-data-simple-rest and reads the total from Content-Range', async () => {
    const seen: string[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        seen.push(decodeURIComponent(request.url))
        return new Response(JSON.stringify([sub()]), { status: 200, headers: { 'Content-Type': 'application/json', 'Content-Range': 'subscriptions 0-0/3' } })
      }),
    )
    const res = await dataProvider.getList('billing/subscriptions', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'current_period_end', order: 'DESC' },
      filter: { status: 'past_due', plan: 'monthly' },
    })
    expect(res.total).toBe(3)
    expect(seen[0]).toContain('/api/admin/billing/subscriptions?')
    expect(seen[0]).toContain('filter={"status":"past_due","plan":"monthly"}')
  })
})

describe('billing views', () => {
  it('MRR and churn: one row per month with the amount, counts and rate', async () => {
    await renderWithAdmin(
      <MetricsTable
        months={[
          { month: '2026-10', mrr_cents: 29900, active: 10, churned: 0, churn_rate: 0 },
          { month: '2026-11', mrr_cents: 35880, active: 12, churned: 1, churn_rate: 0.0833 },
        ]}
      />,
    )
    const all = texts()
    expect(all.filter((t) => /R\$\s358,80/.test(t))).toHaveLength(2) // the headline and the month's row
    expect(all).toContain('8,3%')
    expect(document.querySelectorAll('tbody tr')).toHaveLength(2)
  })

  it("a member's timeline mixes Stripe events and entitlement changes", async () => {
    const calls = scriptFetch((c) =>
      c.path === `/api/admin/billing/subscriptions/${sub().user_id}/timeline`
        ? {
            status: 200,
            json: [
              { at: '2026-11-28T12:00:00Z', source: 'stripe', type: 'invoice.paid', detail: 'R$ 299,00' },
              { at: '2026-11-28T12:00:01Z', source: 'entitlement', type: 'premium', detail: 'premium_yearly' },
            ],
          }
        : undefined,
    )
    await renderWithAdmin(
      <RecordContextProvider value={sub()}>
        <SubscriptionTimeline />
      </RecordContextProvider>,
    )
    await until(() => texts().includes('invoice.paid — R$ 299,00'))
    expect(texts()).toContain('premium — premium_yearly')
    expect(texts()).toContain('Acesso')
    expect(calls).toHaveLength(1)
  })

  it('status chips speak pt-BR; a failed payment shows as such', async () => {
    await renderWithAdmin(
      <>
        <RecordContextProvider value={sub({ payment_failed: true })}>
          <SubscriptionStatusChip />
        </RecordContextProvider>
        <RecordContextProvider value={event()}>
          <EventStatusChip />
        </RecordContextProvider>
      </>,
    )
    expect(texts()).toContain('Pagamento falhou')
    expect(texts()).toContain('Falhou')
  })

  it("'Reprocessar' asks, then posts with the CSRF header", async () => {
    const calls = scriptFetch((c) => (c.method === 'POST' && c.path === '/api/admin/billing/events/evt_1/reprocess' ? { status: 200, json: { id: 'evt_1', status: 'applied' } } : undefined))
    await renderWithAdmin(
      <RecordContextProvider value={event()}>
        <ReprocessButton />
      </RecordContextProvider>,
    )
    await until(() => !!button('Reprocessar'))
    await act(async () => button('Reprocessar')!.click())
    await until(() => texts().includes('Reprocessar este evento?'))
    const dialog = document.body.querySelector('[role="dialog"]')!
    await act(async () => button('Reprocessar', dialog)!.click())
    await until(() => calls.length === 1)
    expect(calls[0].headers.get('X-CSRF-Token')).toBe('csrf1')
  })

  it("'Reprocessar' is not offered to anyone but a super admin", async () => {
    await renderWithAdmin(
      <RecordContextProvider value={event()}>
        <ReprocessButton />
      </RecordContextProvider>,
      ['user', 'editor'],
    )
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50))
    })
    expect(button('Reprocessar')).toBeUndefined()
  })
})
