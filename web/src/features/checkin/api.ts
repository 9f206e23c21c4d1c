import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'
import { queryKeys } from '@/lib/queryKeys'

/** GET /api/checkin. */
export interface CheckinState {
  last_checkin: string | null
  sequence_count: number
  total_checkins: number
  total_checkin_points: number
  last_bonus_at: string | null
  time_zone: string
  today: string
  checked_in_today: boolean
  can_check_in: boolean
  broken: boolean
  next_midnight: string
}

/** POST /api/checkin → 201. */
export interface CheckinResult extends CheckinState {
  sequence: number
  points_awarded: number
  completed_streak: boolean
  bonus_points: number
}

export const checkinKey = ['checkin'] as const

export function useCheckinState() {
  return useQuery({
    queryKey: checkinKey,
    queryFn: ({ signal }) => apiFetch<CheckinState>('/api/checkin', { signal }),
  })
}

/** The browser's IANA zone, sent so a first check-in counts in the user's own day. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined
  } catch {
    return undefined
  }
}

export function useCheckIn() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiFetch<CheckinResult>('/api/checkin', { method: 'POST', body: { time_zone: browserTimeZone() } }),
    retry: false,
    onSuccess: (result) => {
      queryClient.setQueryData(checkinKey, result)
      void queryClient.invalidateQueries({ queryKey: queryKeys.pointsBalance })
    },
  })
}

export function useResetStreak() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiFetch<CheckinState>('/api/checkin/reset', { method: 'POST' }),
    onSuccess: (state) => queryClient.setQueryData(checkinKey, state),
  })
}
