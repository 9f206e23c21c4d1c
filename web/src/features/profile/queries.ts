import { queryOptions } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'
import { queryKeys } from '@/lib/queryKeys'
import type { Completeness, Profile } from './types'

// The query options behind the own-profile hooks (./api), apart so the
// start-up warm-up can prefetch them without pulling the hooks' code into the
// first bundle.

/** GET /api/profile: the signed-in user's own profile, the only fetcher of queryKeys.myProfile. */
export const myProfileQuery = queryOptions({
  queryKey: queryKeys.myProfile,
  queryFn: ({ signal }) => apiFetch<Profile>('/api/profile', { signal }),
})

/** GET /api/profile/completeness: what the own profile still lacks, as the server sees it. */
export const profileCompletenessQuery = queryOptions({
  queryKey: queryKeys.profileCompleteness,
  queryFn: ({ signal }) => apiFetch<Completeness>('/api/profile/completeness', { signal }),
})
