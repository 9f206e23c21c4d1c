import { httpClient } from '../providers/httpClient'
import type { MonthMetrics, TimelineEntry } from './types'

const BASE = '/api/admin/billing'

export async function fetchMetrics(): Promise<MonthMetrics[]> {
  const { json } = await httpClient(`${BASE}/metrics`)
  return (json?.mrr_cents_by_month ?? []) as MonthMetrics[]
}

export async function fetchTimeline(userId: string): Promise<TimelineEntry[]> {
  const { json } = await httpClient(`${BASE}/subscriptions/${encodeURIComponent(userId)}/timeline`)
  return (json ?? []) as TimelineEntry[]
}

/** Runs a stored webhook event through the handler again (super admins); answers its new status. */
export async function reprocessEvent(id: string): Promise<{ id: string; status: string }> {
  const { json } = await httpClient(`${BASE}/events/${encodeURIComponent(id)}/reprocess`, { method: 'POST', body: {} })
  return json as { id: string; status: string }
}
