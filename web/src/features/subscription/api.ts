import { useQuery } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'
import { queryKeys } from '@/lib/queryKeys'

export type BillingCycle = 'monthly' | 'yearly'

/**
 * GET /api/subscription (and what POST /api/billing/check and /sync answer):
 * the caller's plan and trial, with the server's own premium verdict and, once
 * billing knows the member, what Stripe says of the subscription.
 */
export interface Subscription {
  subscription_status: string | null
  subscription_tier: string | null
  trial_ends_at: string | null
  is_premium: boolean
  trial_active: boolean
  trial_expired: boolean
  days_left: number
  plan?: BillingCycle | null
  /** Stripe's word: active, trialing, past_due, unpaid, canceled, incomplete, … */
  billing_status?: string | null
  current_period_end?: string | null
  cancel_at_period_end?: boolean
  /** While a failed payment is being retried: premium is kept until then. */
  grace_until?: string | null
  /** The latest invoice failed: the dunning banner shows. */
  payment_failed?: boolean
  /** When premium ends (grace, or a cancelled period); null = open-ended. */
  premium_until?: string | null
}

/**
 * The only reader of queryKeys.subscription (the sidebar's premium entries and
 * the trial-expired dialog). Not retried: a failed read just means "not
 * premium" until the next load, never an error on screen.
 */
export function useSubscription() {
  return useQuery({
    queryKey: queryKeys.subscription,
    queryFn: ({ signal }) => apiFetch<Subscription>('/api/subscription', { signal }),
    retry: false,
  })
}

/** Premium as the server decides it; false while loading or when the read failed. */
export function useIsPremium(): boolean {
  return useSubscription().data?.is_premium === true
}

// Billing's own reads live under the subscription key, so the
// subscription.changed live event (which invalidates queryKeys.subscription)
// refreshes them too.
export const billingKeys = {
  plans: ['billing', 'plans'] as const,
  details: [...queryKeys.subscription, 'billing'] as const,
  payments: [...queryKeys.subscription, 'payments'] as const,
  diagnostics: ['billing', 'diagnostics'] as const,
}

export interface Plan {
  cycle: BillingCycle
  price_cents: number
  interval: string
  price_id: string
}

/** GET /api/billing/plans (public). */
export interface PlansResponse {
  currency: string
  plans: Plan[]
  yearly_saving_percent: number
  boleto: boolean
  pix: boolean
}

export function usePlans() {
  return useQuery({
    queryKey: billingKeys.plans,
    queryFn: ({ signal }) => apiFetch<PlansResponse>('/api/billing/plans', { signal }),
  })
}

export interface Invoice {
  id: string
  number: string | null
  status: string
  amount_cents: number
  created: string
  pdf_url: string | null
  hosted_url: string | null
}

export type PaymentMethod = { brand: string; last4: string; type?: undefined } | { type: 'boleto' | 'pix'; brand?: undefined; last4?: undefined }

/** GET /api/billing/subscription: what /subscription shows. */
export interface SubscriptionDetails {
  view: Subscription
  plan: BillingCycle | null
  status_text?: string | null
  next_charge: { amount_cents: number; at: string } | null
  payment_method: PaymentMethod | null
  invoices: Invoice[]
}

export function useSubscriptionDetails() {
  return useQuery({
    queryKey: billingKeys.details,
    queryFn: ({ signal }) => apiFetch<SubscriptionDetails>('/api/billing/subscription', { signal }),
    staleTime: 0,
  })
}

export type PaymentKind = 'invoice' | 'attempt' | 'refund' | 'dispute'

export interface Payment {
  id: string
  kind: PaymentKind
  status: string
  amount_cents: number
  at: string
  description: string | null
  hosted_url?: string | null
}

export function usePayments() {
  return useQuery({
    queryKey: billingKeys.payments,
    queryFn: ({ signal }) => apiFetch<{ payments: Payment[] }>('/api/billing/payments', { signal }),
    staleTime: 0,
  })
}

export interface Diagnostics {
  configured: { secret_key: boolean; webhook_secret: boolean; price_monthly: boolean; price_yearly: boolean }
  mode: 'fake' | 'test' | 'live'
  /** The Stripe API version the code pins (the webhook endpoint must use it). */
  api_version?: string
  api_reachable: boolean
  api_latency_ms: number | null
  api_error?: string
  webhook_url: string
  last_events: { id: string; type: string; status: string; received_at: string; lag_ms: number | null }[]
}

export function useDiagnostics(enabled: boolean) {
  return useQuery({
    queryKey: billingKeys.diagnostics,
    queryFn: ({ signal }) => apiFetch<Diagnostics>('/api/billing/diagnostics', { signal }),
    enabled,
    staleTime: 0,
    retry: false,
  })
}

export interface CheckoutInput {
  billing_cycle: BillingCycle
  payment_method?: 'card' | 'boleto' | 'pix'
  cpf?: string
}

/** POST /api/billing/checkout → the Stripe Checkout page's address (409 when already subscribed). */
export function createCheckout(input: CheckoutInput): Promise<{ url: string }> {
  return apiFetch<{ url: string }>('/api/billing/checkout', { method: 'POST', body: input })
}

/** POST /api/billing/portal → the Stripe customer portal's address. */
export function createPortal(): Promise<{ url: string }> {
  return apiFetch<{ url: string }>('/api/billing/portal', { method: 'POST', body: {} })
}

export type SyncResponse = Subscription & {
  checkout_status?: 'complete' | 'open' | 'expired'
  payment_status?: 'paid' | 'unpaid' | 'no_payment_required' | 'processing'
}

/** POST /api/billing/sync: reads Stripe now (the success page does not wait for the webhook). */
export function syncSubscription(sessionId: string | null): Promise<SyncResponse> {
  return apiFetch<SyncResponse>('/api/billing/sync', { method: 'POST', body: sessionId ? { session_id: sessionId } : {} })
}

/** POST /api/billing/check: check-subscription (the server syncs at most once per 5 min per member). */
export function checkSubscription(): Promise<Subscription> {
  return apiFetch<Subscription>('/api/billing/check', { method: 'POST', body: {} })
}
