import { useQuery } from '@tanstack/react-query'
import { ApiError, apiFetch } from './api'
import { queryKeys } from './queryKeys'

/** The fields of GET /api/profile the shell shows (the profile feature has the full type). */
export interface ProfileSummary {
  id: string
  first_name: string
  last_name: string
  email: string
  avatar_url: string | null
  title?: string | null
}

export interface ProfileCompleteness {
  complete: boolean
  missing: string[]
}

/** Subscription fields of spec §3 (Subscriber). */
export interface SubscriptionState {
  subscription_status?: string | null
  subscription_tier?: string | null
  trial_ends_at?: string | null
  /** The server's own verdict (GET /api/subscription); preferred when present. */
  is_premium?: boolean
}

const PREMIUM_TIERS = new Set(['premium', 'premium_monthly', 'premium_yearly', 'vip'])

/** Spec §4: premium = status active and a premium tier. */
export function isPremium(sub: SubscriptionState | null | undefined): boolean {
  if (!sub) return false
  if (typeof sub.is_premium === 'boolean') return sub.is_premium
  return sub.subscription_status === 'active' && PREMIUM_TIERS.has(sub.subscription_tier ?? '')
}

/** 'Ana Souza'; '' when neither name is set. */
export function fullName(p: Pick<ProfileSummary, 'first_name' | 'last_name'> | null | undefined): string {
  return [p?.first_name, p?.last_name].map((s) => s?.trim()).filter(Boolean).join(' ')
}

export function useMyProfile(enabled = true) {
  return useQuery({
    queryKey: queryKeys.myProfile,
    queryFn: ({ signal }) => apiFetch<ProfileSummary>('/api/profile', { signal }),
    enabled,
  })
}

export function useProfileCompleteness(enabled = true) {
  return useQuery({
    queryKey: queryKeys.profileCompleteness,
    queryFn: ({ signal }) => apiFetch<ProfileCompleteness>('/api/profile/completeness', { signal }),
    enabled,
  })
}

// Features not deployed yet answer 404; the shell then shows the spec's
// defaults (not premium, 0 VetCoins) instead of an error.
async function optional<T>(path: string, signal: AbortSignal): Promise<T | null> {
  try {
    return await apiFetch<T>(path, { signal })
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 405 || err.status === 501)) return null
    throw err
  }
}

/** Subscription errors are silently ignored (spec §8 Global): unknown means not premium. */
export function useIsPremium(enabled = true): boolean {
  const { data } = useQuery({
    queryKey: queryKeys.subscription,
    queryFn: ({ signal }) => optional<SubscriptionState>('/api/subscription', signal),
    enabled,
    retry: false,
  })
  return isPremium(data)
}

/** VetCoins balance; 0 until the points API answers. */
export function usePointsBalance(enabled = true): number {
  const { data } = useQuery({
    queryKey: queryKeys.pointsBalance,
    queryFn: ({ signal }) => optional<{ total_points?: number }>('/api/points/balance', signal),
    enabled,
    retry: false,
  })
  const value = data?.total_points ?? 0
  return Number.isFinite(value) ? value : 0
}
