import { useMutation, useQuery } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'
import type { SessionUser } from '@/lib/session/types'

// The auth endpoints of BRIEF.md's API contract. Every mutation here answers a
// person pressing a button once: no automatic retries, because a repeated login
// counts as another attempt against the rate limit and lockout.

export type MessageResponse = { message: string }
export type LoginResponse = { message: string; user: SessionUser }

export type SignupInput = {
  first_name: string
  last_name: string
  email: string
  password: string
  referral_code?: string
  device_id?: string
  /** premium_monthly: the confirmation link signs in and continues to the monthly checkout (/register-premium). */
  intent?: 'premium_monthly'
}

export function useLogin() {
  return useMutation({
    retry: false,
    mutationFn: (input: { email: string; password: string }) =>
      apiFetch<LoginResponse>('/api/auth/login', { method: 'POST', body: input }),
  })
}

export function useSignup() {
  return useMutation({
    retry: false,
    mutationFn: (input: SignupInput) => apiFetch<MessageResponse>('/api/auth/signup', { method: 'POST', body: input }),
  })
}

export function useResendConfirmation() {
  return useMutation({
    retry: false,
    mutationFn: (email: string) =>
      apiFetch<MessageResponse>('/api/auth/confirm/resend', { method: 'POST', body: { email } }),
  })
}

export function useConfirmEmail() {
  return useMutation({
    retry: false,
    mutationFn: (token: string) => apiFetch<MessageResponse & { signed_in?: boolean }>('/api/auth/confirm', { method: 'POST', body: { token } }),
  })
}

export function useForgotPassword() {
  return useMutation({
    retry: false,
    mutationFn: (email: string) =>
      apiFetch<MessageResponse>('/api/auth/password/forgot', { method: 'POST', body: { email } }),
  })
}

export function useResetPassword() {
  return useMutation({
    retry: false,
    mutationFn: (input: { token: string; password: string }) =>
      apiFetch<MessageResponse>('/api/auth/password/reset', { method: 'POST', body: input }),
  })
}

/** Which sign-in providers the server has configured (Google only when its OIDC settings exist). */
export function useAuthProviders() {
  return useQuery({
    queryKey: ['auth', 'providers'],
    queryFn: () => apiFetch<{ google: boolean }>('/api/auth/providers'),
    staleTime: Infinity,
  })
}

// ---- two-step verification ----

/** The password step's answer for an account with two-step verification: no session yet. */
export type TwoStepRequired = { two_step_required: true; message: string }
export type LoginAnswer = LoginResponse | TwoStepRequired

export function needsTwoStep(res: LoginAnswer): res is TwoStepRequired {
  return (res as TwoStepRequired).two_step_required === true
}

export function useLoginWithTwoStep() {
  return useMutation({
    retry: false,
    mutationFn: (input: { email: string; password: string }) =>
      apiFetch<LoginAnswer>('/api/auth/login', { method: 'POST', body: input }),
  })
}

/** The code step: a TOTP code or a recovery code, against the challenge cookie the password (or Google) step left. */
export function useVerifyTwoStep() {
  return useMutation({
    retry: false,
    mutationFn: (input: { code: string; remember_device: boolean }) =>
      apiFetch<LoginResponse>('/api/auth/two-step/verify', { method: 'POST', body: input }),
  })
}

// ---- sign-in with a code by e-mail ----

export function useRequestLoginCode() {
  return useMutation({
    retry: false,
    mutationFn: (email: string) => apiFetch<MessageResponse>('/api/auth/code', { method: 'POST', body: { email } }),
  })
}

/** {email, code} typed in, or the e-mail link's {token}. */
export function useLoginWithCode() {
  return useMutation({
    retry: false,
    mutationFn: (input: { email: string; code: string } | { token: string }) =>
      apiFetch<LoginAnswer>('/api/auth/code/verify', { method: 'POST', body: input }),
  })
}
