import { act } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { installBrowserGaps, renderRoutes } from '@/test/renderRoutes'
import { fakeBillingApi, premiumView } from './test/fakeBillingApi'
import { CHECK_INTERVAL_MS, SubscriptionCheck } from './useSubscriptionCheck'

beforeEach(() => {
  installBrowserGaps()
  localStorage.clear()
  vi.useFakeTimers({ shouldAdvanceTime: true })
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('check-subscription', () => {
  it('runs on arrival, at most once per 5 minutes (across reloads), and its answer becomes the subscription view', async () => {
    const api = fakeBillingApi(() => undefined, { view: premiumView })
    const first = renderRoutes([{ path: '/', element: <SubscriptionCheck userId="u1" /> }], '/')
    await vi.waitFor(() => expect(api.posts('/api/billing/check')).toHaveLength(1))
    await vi.waitFor(() => expect(first.client.getQueryData(['subscription'])).toMatchObject({ is_premium: true }))

    // A reload a minute later: no second check.
    await act(() => vi.advanceTimersByTimeAsync(60_000))
    renderRoutes([{ path: '/', element: <SubscriptionCheck userId="u1" /> }], '/')
    await act(() => vi.advanceTimersByTimeAsync(60_000))
    expect(api.posts('/api/billing/check')).toHaveLength(1)

    // Five minutes after the first: checked again (once, though two pages are open).
    await act(() => vi.advanceTimersByTimeAsync(CHECK_INTERVAL_MS))
    await vi.waitFor(() => expect(api.posts('/api/billing/check')).toHaveLength(2))
  })

  it('another member on the same device is checked at once', async () => {
    localStorage.setItem('vc_subscription_checked_at', `u1:${Date.now()}`)
    const api = fakeBillingApi()
    renderRoutes([{ path: '/', element: <SubscriptionCheck userId="u2" /> }], '/')
    await vi.waitFor(() => expect(api.posts('/api/billing/check')).toHaveLength(1))
  })
})
