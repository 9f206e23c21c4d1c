import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'
import { queryKeys } from '@/lib/queryKeys'
import { myProfileQuery, profileCompletenessQuery, specialtiesQuery } from './queries'
import type { Profile, ProfileUpdate, PublicProfile } from './types'

/**
 * The signed-in user's own profile: the only hook on queryKeys.myProfile, used
 * by the shell (sidebar), the home page and the profile pages.
 */
export function useMyProfile() {
  return useQuery(myProfileQuery)
}

/** What the own profile still lacks, as the server sees it (the home page's banner). */
export function useProfileCompleteness() {
  return useQuery(profileCompletenessQuery)
}

export function usePublicProfile(userId: string) {
  return useQuery({
    queryKey: [...queryKeys.profile, 'public', userId],
    queryFn: () => apiFetch<PublicProfile>(`/api/profiles/${encodeURIComponent(userId)}`),
    enabled: userId !== '',
  })
}

/** The fixed list of veterinary specialties, with pt-BR labels, from the server. */
export function useSpecialties() {
  return useQuery(specialtiesQuery)
}

export function useUpdateProfile() {
  const queryClient = useQueryClient()
  return useMutation({
    // A refused save (422) must not be repeated; a dropped connection may be.
    mutationFn: (update: ProfileUpdate) => apiFetch<Profile>('/api/profile', { method: 'PUT', body: update }),
    onSuccess: (profile) => {
      queryClient.setQueryData(queryKeys.myProfile, profile)
      // The sidebar, home badge and completeness banner all read under ['profile'].
      void queryClient.invalidateQueries({ queryKey: queryKeys.profile })
    },
  })
}

export function useUploadAvatar() {
  const queryClient = useQueryClient()
  return useMutation({
    retry: false,
    mutationFn: ({ file, onProgress }: { file: Blob; onProgress: (fraction: number) => void }) => {
      const form = new FormData()
      form.append('avatar', file, 'avatar.jpg')
      return apiFetch<{ avatar_url: string }>('/api/profile/avatar', { method: 'POST', form, onUploadProgress: onProgress })
    },
    onSuccess: ({ avatar_url }) => {
      queryClient.setQueryData<Profile>(queryKeys.myProfile, (p) => (p ? { ...p, avatar_url } : p))
      void queryClient.invalidateQueries({ queryKey: queryKeys.profile })
    },
  })
}
