import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'

// Two-step verification (TOTP) as Segurança manages it.

export type TwoStepStatus = { enabled: boolean; recovery_codes_left: number; required: boolean }
export type TOTPEnrolment = { secret: string; otpauth_url: string; qr_code: string }

const statusKey = ['auth', 'two-step'] as const

export function useTwoStepStatus() {
  return useQuery({ queryKey: statusKey, queryFn: () => apiFetch<TwoStepStatus>('/api/auth/two-step') })
}

export function useBeginTOTP() {
  return useMutation({ retry: false, mutationFn: () => apiFetch<TOTPEnrolment>('/api/auth/two-step/totp', { method: 'POST' }) })
}

export function useConfirmTOTP() {
  const qc = useQueryClient()
  return useMutation({
    retry: false,
    mutationFn: (code: string) =>
      apiFetch<{ message: string; recovery_codes: string[] }>('/api/auth/two-step/totp/confirm', { method: 'POST', body: { code } }),
    // The session may have gained staff roles (it is verified now).
    onSuccess: () => qc.invalidateQueries({ queryKey: ['auth'] }),
  })
}

export function useDisableTOTP() {
  const qc = useQueryClient()
  return useMutation({
    retry: false,
    mutationFn: (input: { password: string; code: string }) =>
      apiFetch<{ message: string }>('/api/auth/two-step/totp/disable', { method: 'POST', body: input }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['auth'] }),
  })
}

export function useChangePassword() {
  return useMutation({
    retry: false,
    mutationFn: (input: { current_password: string; password: string }) =>
      apiFetch<{ message: string }>('/api/auth/password/change', { method: 'POST', body: input }),
  })
}

export type SessionInfo = { id: string; created_at: string; last_used_at: string; user_agent: string; current: boolean }

export function useSessions() {
  return useQuery({ queryKey: ['auth', 'sessions'], queryFn: () => apiFetch<{ sessions: SessionInfo[] }>('/api/auth/sessions') })
}

export function useRevokeSession() {
  const qc = useQueryClient()
  return useMutation({
    retry: false,
    mutationFn: (id: string) => apiFetch<void>(`/api/auth/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['auth', 'sessions'] }),
  })
}
