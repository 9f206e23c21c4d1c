import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { queryKeys } from '@/lib/queryKeys'
import { checkSubscription } from './api'

/** check-subscription runs at most once per 5 minutes (spec §9), across reloads and tabs of this device. */
export const CHECK_INTERVAL_MS = 5 * 60_000
const LAST_CHECK_KEY = 'vc_subscription_checked_at'

function lastCheck(userId: string): number {
  try {
    const raw = localStorage.getItem(LAST_CHECK_KEY)
    const [who, at] = (raw ?? '').split(':')
    return who === userId ? Number(at) || 0 : 0
  } catch {
    return 0
  }
}

function markChecked(userId: string, at: number) {
  try {
    localStorage.setItem(LAST_CHECK_KEY, `${userId}:${at}`)
  } catch {
    // Storage disabled: the server's own throttle still applies.
  }
}

/**
 * Mounted once in the signed-in layout: asks the server to compare the
 * subscription with Stripe (POST /api/billing/check) when the last check on
 * this device is 5 minutes old, and again every 5 minutes while the app stays
 * open. The answer is the subscription view: it replaces the cached one, so
 * the menu, the trial badge and the dunning banner follow.
 */
export function useSubscriptionCheck(userId: string | null | undefined, now: () => number = Date.now) {
  const client = useQueryClient()
  useEffect(() => {
    if (!userId) return
    let stopped = false
    const run = () => {
      const at = now()
      if (at - lastCheck(userId) < CHECK_INTERVAL_MS) return
      markChecked(userId, at)
      checkSubscription()
        .then((view) => {
          if (stopped) return
          if (view && typeof view === 'object' && 'is_premium' in view) client.setQueryData(queryKeys.subscription, view)
          else void client.invalidateQueries({ queryKey: queryKeys.subscription })
        })
        .catch(() => {
          // Subscription errors are silent (spec §8): the last view stays.
        })
    }
    run()
    const timer = setInterval(run, 30_000)
    return () => {
      stopped = true
      clearInterval(timer)
    }
  }, [userId, client, now])
}

/** The check, as a component for the layout. */
export function SubscriptionCheck({ userId }: { userId: string | null | undefined }) {
  useSubscriptionCheck(userId)
  return null
}
