import { dashboardCardsQuery } from '@/features/home/queries'
import { myProfileQuery, profileCompletenessQuery, specialtiesQuery } from '@/features/profile/queries'
import { readCsrfCookie } from '@/lib/cookies'
import { queryClient } from '@/lib/queryClient'

/**
 * A returning user (the CSRF cookie exists only with a session) would
 * otherwise wait for the session check, then the layout chunk, then the home
 * chunk, then the home's data. Start all of them at once instead.
 */
export function warmUpSignedInStart(): void {
  // Without signal the prefetches would fail and mark the data restored from
  // the device as errors: the pages show what was kept instead.
  if (!readCsrfCookie() || navigator.onLine === false) return
  void import('./layout/AppLayout').catch(() => {})
  // The specialties' labels, once the start has settled, so a profile opened
  // later without signal can name them (kept a day; fetched at most once).
  setTimeout(() => void queryClient.prefetchQuery(specialtiesQuery), 5_000)
  if (window.location.pathname !== '/') return
  void import('@/features/home/HomePage').catch(() => {})
  // The home's check-in card (features/checkin) when that feature is present.
  for (const load of Object.values(import.meta.glob('/src/features/checkin/CheckinCard.tsx'))) void load().catch(() => {})
  // The same query options the pages use, so each key keeps one fetcher and one type.
  void queryClient.prefetchQuery(myProfileQuery)
  void queryClient.prefetchQuery(profileCompletenessQuery)
  void queryClient.prefetchQuery(dashboardCardsQuery)
}
