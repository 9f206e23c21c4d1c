/** One row of GET /api/admin/billing/subscriptions. */
export interface AdminSubscription {
  id: string
  user_id: string
  email: string
  name: string
  status: string
  plan: 'monthly' | 'yearly' | null
  current_period_end: string | null
  cancel_at_period_end: boolean
  payment_failed?: boolean
}

/** One month of GET /api/admin/billing/metrics. */
export interface MonthMetrics {
  month: string
  mrr_cents: number
  active: number
  churned: number
  churn_rate: number
}

/** One entry of a member's timeline: a Stripe event or an entitlement change. */
export interface TimelineEntry {
  at: string
  source: 'stripe' | 'entitlement'
  type: string
  detail: string
}

/** One row of GET /api/admin/billing/events (every webhook received). */
export interface AdminEvent {
  id: string
  type: string
  status: 'received' | 'applied' | 'ignored' | 'failed'
  attempts: number
  lag_ms: number | null
  received_at: string
  error: string | null
  user_id?: string | null
  source?: string
}

export const SUBSCRIPTION_STATUS_LABEL: Record<string, string> = {
  active: 'Ativa',
  trialing: 'Em teste',
  past_due: 'Pagamento pendente',
  unpaid: 'Não paga',
  canceled: 'Cancelada',
  incomplete: 'Incompleta',
  incomplete_expired: 'Expirada',
  paused: 'Pausada',
}

export const SUBSCRIPTION_STATUS_COLOUR: Record<string, 'success' | 'warning' | 'error' | 'default' | 'info'> = {
  active: 'success',
  trialing: 'info',
  past_due: 'warning',
  unpaid: 'error',
  canceled: 'default',
  incomplete: 'warning',
  incomplete_expired: 'default',
  paused: 'default',
}

export const PLAN_LABEL: Record<string, string> = { monthly: 'Mensal', yearly: 'Anual' }

export const EVENT_STATUS_LABEL: Record<AdminEvent['status'], string> = { received: 'Recebido', applied: 'Aplicado', ignored: 'Ignorado', failed: 'Falhou' }
export const EVENT_STATUS_COLOUR: Record<AdminEvent['status'], 'success' | 'warning' | 'error' | 'default' | 'info'> = {
  received: 'info',
  applied: 'success',
  ignored: 'default',
  failed: 'error',
}

export const statusChoices = Object.entries(SUBSCRIPTION_STATUS_LABEL).map(([id, name]) => ({ id, name }))
export const planChoices = Object.entries(PLAN_LABEL).map(([id, name]) => ({ id, name }))
export const eventStatusChoices = Object.entries(EVENT_STATUS_LABEL).map(([id, name]) => ({ id, name }))

const money = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' })
export const formatMoney = (cents: number) => money.format(cents / 100)

/** "2026-11" → "nov. de 2026". */
export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number)
  if (!y || !m) return month
  return new Intl.DateTimeFormat('pt-BR', { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 1)))
}

/** 0.0432 → "4,3%". */
export function percent(rate: number): string {
  return `${(rate * 100).toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`
}

/** 1500 → "1,5 s"; 320 → "320 ms". */
export function lag(ms: number | null | undefined): string {
  if (ms == null) return '—'
  if (ms < 1000) return `${ms} ms`
  return `${(ms / 1000).toLocaleString('pt-BR', { maximumFractionDigits: 1 })} s`
}
