/**
 * The browser side of a VetClube cookie session, shared by the PWA (web/) and
 * the backoffice (admin/): reading the CSRF cookie, the X-CSRF-Token header on
 * unsafe methods, and one single-flight refresh plus one retry when the access
 * cookie has expired (401).
 *
 * Plain TypeScript over the DOM and fetch, no dependencies. Each app imports
 * it as `@vetclube/session-client` (a Vite and TypeScript path alias) from
 * one thin layer that owns the transport and the error shape: web/src/lib/api.ts
 * (ApiError with pt-BR messages, XMLHttpRequest for upload progress) and
 * admin/src/providers/httpClient.ts (react-admin's { status, headers, body,
 * json } and HttpError). Nothing else in either app should import it.
 */

/**
 * Names of the CSRF cookie the server sets with every session: "__Host-vc_csrf"
 * on a secure origin (a sibling site cannot plant a "__Host-" cookie), plain
 * "vc_csrf" on http://127.0.0.1 in development. The prefixed one wins.
 */
export const CSRF_COOKIE_NAMES = ['__Host-vc_csrf', 'vc_csrf'] as const

/** The header the server compares with the session's CSRF token. */
export const CSRF_HEADER = 'X-CSRF-Token'

/** Trades the refresh cookie for new session cookies (the refresh token rotates). */
export const REFRESH_PATH = '/api/auth/refresh'

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/**
 * Paths whose 401 is an answer, not an expired access cookie: refreshing and
 * retrying could not change it, and would repeat what the first call did.
 * Matched on whole path segments, so "/api/auth/confirm" covers
 * "/api/auth/confirm/resend" but not "/api/auth/confirmations".
 */
export const NO_REFRESH_PATHS: readonly string[] = [
  // Wrong email or password. A retry would count a second failed attempt
  // against the account's and the IP's sign-in limits.
  '/api/auth/login',
  // The refresh itself: its 401 means the session is over (spent or revoked
  // refresh token). Refreshing it would recurse.
  REFRESH_PATH,
  // Signing out must not revive the session it ends; the server already
  // signs out through the refresh cookie when the access cookie has expired.
  '/api/auth/logout',
  // Anonymous account flows (sign-up, e-mail confirmation and its resend,
  // forgotten and reset password): they never read the session, so a refresh
  // cannot change their answer, and a retry would send a second e-mail or
  // replay a one-time token.
  '/api/auth/signup',
  '/api/auth/confirm',
  '/api/auth/password',
]

/** Reads one cookie by name from document.cookie (undefined when absent). */
export function readCookie(name: string): string | undefined {
  if (typeof document === 'undefined') return undefined
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=')
    if (eq < 0) continue
    if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim())
  }
  return undefined
}

/**
 * The session's CSRF token (echoed as X-CSRF-Token), or undefined without a
 * session: the server sets it with the session cookies and clears them together.
 */
export function readCsrfCookie(): string | undefined {
  for (const name of CSRF_COOKIE_NAMES) {
    const value = readCookie(name)
    if (value) return value
  }
  return undefined
}

/** True for the methods the server checks the CSRF token on. */
export function isUnsafeMethod(method: string): boolean {
  return UNSAFE_METHODS.has(method.toUpperCase())
}

/**
 * The CSRF header for one request: the session's token on unsafe methods,
 * nothing otherwise (a GET must not leak it, e.g. into a proxy's log). Read
 * anew for every request, so a retry after a refresh carries the rotated token.
 */
export function csrfHeaders(method: string): Record<string, string> {
  if (!isUnsafeMethod(method)) return {}
  const token = readCsrfCookie()
  return token ? { [CSRF_HEADER]: token } : {}
}

/** The path of a relative or absolute URL, without query or fragment. */
function pathOf(url: string): string {
  return new URL(url, 'http://localhost').pathname
}

/** False for the paths in NO_REFRESH_PATHS. */
export function isRefreshablePath(url: string): boolean {
  const path = pathOf(url)
  return !NO_REFRESH_PATHS.some((p) => path === p || path.startsWith(p + '/'))
}

// Parallel requests that all meet an expired access cookie share one refresh:
// the refresh token rotates, so a second concurrent refresh would present a
// token the first one has just spent.
let refreshing: Promise<boolean> | null = null

/** POST /api/auth/refresh once for all concurrent callers; true when the cookies were rotated. */
export function refreshSession(): Promise<boolean> {
  refreshing ??= fetch(REFRESH_PATH, {
    method: 'POST',
    // The refresh cookie authenticates this write, so it carries the CSRF token too.
    headers: { Accept: 'application/json', ...csrfHeaders('POST') },
    credentials: 'same-origin',
  })
    .then((res) => res.ok)
    .catch(() => false)
    .finally(() => {
      refreshing = null
    })
  return refreshing
}

export interface SessionSendOptions {
  /** Never refresh, whatever the path (a caller that wants the raw 401). */
  noRefresh?: boolean
}

/**
 * Runs `send` (one request by the app's own transport; it must build its
 * headers, CSRF included, on every call) and, when it answers 401 on a path
 * that may refresh while a session cookie exists, refreshes the session once
 * (shared with concurrent callers) and sends again. Answers the last response;
 * the caller shapes errors.
 */
export async function sendWithSession<R extends { status: number }>(
  url: string,
  send: () => Promise<R>,
  options: SessionSendOptions = {},
): Promise<R> {
  const res = await send()
  if (res.status !== 401 || options.noRefresh || !isRefreshablePath(url)) return res
  // No CSRF cookie means no session (the server sets and clears it with the
  // refresh cookie): nothing to refresh, and the server would refuse it anyway.
  if (readCsrfCookie() === undefined) return res
  if (!(await refreshSession())) return res
  return send()
}
