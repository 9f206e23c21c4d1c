import { randomUUID } from 'node:crypto'
import type { APIRequestContext, BrowserContext } from '@playwright/test'
import { DEV_TOTP, devTOTP } from '../../../e2e-support/totp'
import { linkFrom, waitForMail } from './mailbox'

export const STRONG_PASSWORD = 'Vet!Clube2026seguro'

export interface TestUser {
  email: string
  password: string
  firstName: string
  lastName: string
}

export function newTestUser(overrides: Partial<TestUser> = {}): TestUser {
  return {
    email: `e2e-${randomUUID().slice(0, 8)}@exemplo.com.br`,
    password: STRONG_PASSWORD,
    firstName: 'Ana',
    lastName: 'Veterinária',
    ...overrides,
  }
}

/** Echoes the vc_csrf cookie, as the web app does on unsafe methods. */
async function csrfHeaders(context: BrowserContext): Promise<Record<string, string>> {
  const csrf = (await context.cookies()).find((c) => c.name === 'vc_csrf')
  return csrf ? { 'X-CSRF-Token': csrf.value } : {}
}

/** POST with the browser context's cookies and CSRF header (fetches the session first so the cookie exists). */
export async function apiPost(context: BrowserContext, path: string, data: unknown) {
  if (!(await context.cookies()).some((c) => c.name === 'vc_csrf')) await context.request.get('/api/auth/session')
  return context.request.post(path, { data, headers: await csrfHeaders(context) })
}

/** Signs up through the API and confirms through the dev mailbox link. */
export async function createConfirmedUser(context: BrowserContext, request: APIRequestContext, user = newTestUser()): Promise<TestUser> {
  const signup = await apiPost(context, '/api/auth/signup', {
    first_name: user.firstName,
    last_name: user.lastName,
    email: user.email,
    password: user.password,
  })
  if (signup.status() !== 201) throw new Error(`signup answered ${signup.status()}: ${await signup.text()}`)
  const mail = await waitForMail(request, user.email)
  const token = new URL(linkFrom(mail, '/confirmar-email')).searchParams.get('token')
  const confirm = await apiPost(context, '/api/auth/confirm', { token })
  if (!confirm.ok()) throw new Error(`confirm answered ${confirm.status()}: ${await confirm.text()}`)
  return user
}

/**
 * Signs in through the API: the browser context then carries the session
 * cookies. The dev seed's staff accounts have two-step verification (fixed
 * development secrets): their code is sent along with the password.
 */
export async function signInByApi(context: BrowserContext, user: Pick<TestUser, 'email' | 'password'>): Promise<void> {
  const code = DEV_TOTP[user.email] ? await devTOTP(user.email) : undefined
  const res = await apiPost(context, '/api/auth/login', { email: user.email, password: user.password, code })
  if (!res.ok()) throw new Error(`login answered ${res.status()}: ${await res.text()}`)
}

/** A confirmed, signed-in user in this browser context. */
export async function signedInUser(context: BrowserContext, request: APIRequestContext, overrides: Partial<TestUser> = {}): Promise<TestUser> {
  const user = await createConfirmedUser(context, request, newTestUser(overrides))
  await signInByApi(context, user)
  return user
}
