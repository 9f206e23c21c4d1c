import type { AuthProvider } from 'ra-core'
import { httpClient, readCsrfCookie } from './httpClient'

export const ACCESS_REFUSED = 'Acesso restrito a editores e administradores.'
/** login's rejection when the account asks for its two-step code: the form shows the code field. */
export const TWO_STEP_NEEDED = 'Digite o código de verificação do seu aplicativo autenticador.'
/** login's rejection when a staff role waits for two-step enrolment: the form walks through it. */
export const TWO_STEP_ENROL = 'Ative a verificação em duas etapas para abrir o backoffice.'
const BACKOFFICE_ROLES = ['editor', 'revisor', 'moderador', 'recrutador', 'super_admin']

export interface SessionUser {
  id: string
  email: string
  provider: string
  roles: string[]
  created_at: string
  /** Staff roles wait for a session that passed two-step verification. */
  two_step_pending?: boolean
}

export function mayEnterBackoffice(roles: readonly string[] | undefined): boolean {
  return !!roles?.some((role) => BACKOFFICE_ROLES.includes(role))
}

// Which roles each resource needs; a resource not listed here is open to
// everyone who may enter the backoffice.
const RESOURCE_ROLES: Record<string, string[]> = {
  users: ['super_admin'],
  audit: ['editor', 'revisor', 'super_admin'],
  moderation: ['moderador', 'super_admin'],
  referrals: ['super_admin'],
  'billing/subscriptions': ['super_admin'],
  'billing/events': ['super_admin'],
  'lgpd-requests': ['super_admin'],
}

export function mayAccessResource(roles: readonly string[], resource: string | undefined): boolean {
  if (!mayEnterBackoffice(roles)) return false
  const needed = resource ? RESOURCE_ROLES[resource] : undefined
  return !needed || needed.some((role) => roles.includes(role))
}

// react-admin asks checkAuth, canAccess, getPermissions and getIdentity at
// once on every page: they share one request while it is in flight.
let pendingSession: Promise<SessionUser | null> | null = null

export function fetchSession(): Promise<SessionUser | null> {
  // The server sets the CSRF cookie with every session and clears it on
  // sign-out: without it there is no session to ask about.
  if (!readCsrfCookie()) return Promise.resolve(null)
  pendingSession ??= loadSession().finally(() => {
    pendingSession = null
  })
  return pendingSession
}

async function loadSession(): Promise<SessionUser | null> {
  try {
    const { json } = await httpClient('/api/auth/session')
    return json.user as SessionUser
  } catch (err: any) {
    if (err?.status === 401) return null
    throw err
  }
}

export async function endSession(): Promise<void> {
  // Always a request, even with no CSRF cookie: react-admin's redirect to the
  // login page after a logout that resolved at once (no delay at all) looped
  // thousands of times and froze the page for seconds.
  try {
    await httpClient('/api/auth/logout', { method: 'POST' })
  } catch {
    // Signed out already, or the server is away: the cookies are the server's to clear.
  }
}

/**
 * The core's cookie session. Signing in through the backoffice's own form
 * with an account that holds no backoffice role (editor, revisor,
 * super_admin) ends that new session again with ACCESS_REFUSED. An app user
 * who is already signed in never gets this far: App shows them
 * AccessRefusedPage and leaves their session alone.
 */
export const authProvider: AuthProvider = {
  async login({ username, email, password, code, remember_device }) {
    // The second step answers the challenge the password step left (a cookie).
    const step = code
      ? httpClient('/api/auth/two-step/verify', { method: 'POST', body: { code, remember_device: !!remember_device } })
      : httpClient('/api/auth/login', { method: 'POST', body: { email: email ?? username, password } })
    const { json } = await step.catch((err) => {
      throw new Error(err?.message || 'Falha na autenticação, tente novamente')
    })
    if (json?.two_step_required) throw new Error(TWO_STEP_NEEDED)
    const user = await fetchSession()
    if (user?.two_step_pending) throw new Error(TWO_STEP_ENROL)
    if (!mayEnterBackoffice(user?.roles)) {
      await endSession()
      throw new Error(ACCESS_REFUSED)
    }
  },

  async logout() {
    await endSession()
  },

  async checkAuth() {
    const user = await fetchSession()
    if (!user) throw new Error('Entre para continuar')
    if (!mayEnterBackoffice(user.roles)) {
      await endSession()
      throw new Error(ACCESS_REFUSED)
    }
  },

  async checkError(error) {
    // 401 survives the refresh in httpClient only when the session is gone;
    // 403 on one resource must not sign an editor out of the whole backoffice.
    if (error?.status === 401) throw new Error('Sua sessão terminou. Entre novamente.')
  },

  async getIdentity() {
    const user = await fetchSession()
    if (!user) throw new Error('Entre para continuar')
    return { id: user.id, fullName: user.email }
  },

  async getPermissions() {
    const user = await fetchSession()
    return user?.roles ?? []
  },

  async canAccess({ resource }) {
    const user = await fetchSession()
    return !!user && mayAccessResource(user.roles, resource)
  },
}
