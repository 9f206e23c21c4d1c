import { queryOptions } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'
import { queryKeys } from '@/lib/queryKeys'
import type { Completeness, Profile, Specialty } from './types'

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

/**
 * GET /api/specialties: the fixed list with its pt-BR labels. It never
 * changes while the app runs, so it is read once and kept (and persisted) for
 * a day: a profile opened without signal still shows 'Clínica Geral', never
 * the code 'clinica_geral'.
 */
export const specialtiesQuery = queryOptions({
  queryKey: ['specialties'],
  queryFn: ({ signal }) => apiFetch<{ specialties: Specialty[] }>('/api/specialties', { signal }).then((r) => r.specialties),
  staleTime: Infinity,
  gcTime: 24 * 60 * 60 * 1000,
})
