import { useQuery } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'
import { queryKeys } from '@/lib/queryKeys'

/** GET /api/subscription: the caller's plan and trial, with the server's own premium verdict. */
export interface Subscription {
  subscription_status: string | null
  subscription_tier: string | null
  trial_ends_at: string | null
  is_premium: boolean
  trial_active: boolean
  trial_expired: boolean
  days_left: number
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
