import { ApiError } from '@/lib/api'

export const LOGIN_SUCCESS_MESSAGE = 'Login realizado com sucesso!'
export const LOGIN_UNEXPECTED_MESSAGE = 'Erro ao fazer login'
export const SIGNUP_FAILED_MESSAGE = 'Erro ao criar conta'

/**
 * Refused logins show the server's message (wrong credentials,
 * unconfirmed email, lockout, rate limit); anything without a usable answer
 * (no connection, server failure) shows the generic text.
 */
export function loginErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return error.message
  return LOGIN_UNEXPECTED_MESSAGE
}

/** The same rule for sign-up, whose generic failure text is 'Erro ao criar conta'. */
export function signupErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return error.message
  return SIGNUP_FAILED_MESSAGE
}
