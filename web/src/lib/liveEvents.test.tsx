import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RECONNECT_DELAY_MS, useLiveEvents, type LiveEventHandlers } from './liveEvents'

vi.mock('./api', () => ({ refreshSession: vi.fn(() => Promise.resolve(true)) }))

/** Enough of EventSource to drive the hook: named listeners, onerror, readyState. */
class FakeEventSource {
  static readonly CONNECTING = 0
  static readonly OPEN = 1
  static readonly CLOSED = 2
  static opened: FakeEventSource[] = []
  readyState = FakeEventSource.OPEN
  onerror: (() => void) | null = null
  closed = false
  private listeners = new Map<string, ((e: MessageEvent) => void)[]>()
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this)
  }
  addEventListener(type: string, fn: (e: MessageEvent) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), fn])
  }
  close() {
    this.closed = true
    this.readyState = FakeEventSource.CLOSED
  }
  emit(type: string, id: number, data: unknown) {
    for (const fn of this.listeners.get(type) ?? []) fn(new MessageEvent(type, { data: JSON.stringify({ id, type, data }) }))
  }
}

function Stream({ handlers }: { handlers: LiveEventHandlers }) {
  useLiveEvents(true, handlers)
  return null
}

const client = new QueryClient()
const renderStream = (handlers: LiveEventHandlers) =>
  render(
    <QueryClientProvider client={client}>
      <Stream handlers={handlers} />
    </QueryClientProvider>,
  )

beforeEach(() => {
  FakeEventSource.opened = []
  vi.stubGlobal('EventSource', FakeEventSource)
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('useLiveEvents', () => {
  it('hands each event to the handler of its type with the query client', () => {
    const onBalance = vi.fn()
    const view = renderStream({ 'points.balance': onBalance })
    const source = FakeEventSource.opened[0]!
    expect(source.url).toBe('/api/events')
    source.emit('points.balance', 7, { balance: { total_points: 40 } })
    expect(onBalance).toHaveBeenCalledWith({ balance: { total_points: 40 } }, client)
    view.unmount()
    expect(source.closed).toBe(true)
  })

  it('after a refused stream, refreshes the session and resumes after the last event seen', async () => {
    vi.useFakeTimers()
    renderStream({ 'subscription.changed': () => {} })
    const first = FakeEventSource.opened[0]!
    first.emit('subscription.changed', 12, {})
    first.readyState = FakeEventSource.CLOSED
    first.onerror?.()
    await vi.advanceTimersByTimeAsync(RECONNECT_DELAY_MS)
    const { refreshSession } = await import('./api')
    expect(refreshSession).toHaveBeenCalled()
    expect(FakeEventSource.opened).toHaveLength(2)
    expect(FakeEventSource.opened[1]!.url).toBe('/api/events?last_event_id=12')
  })
})
