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

export function writeCookie(name: string, value: string, maxAgeSeconds: number): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax`
}

/**
 * Names of the CSRF cookie the server sets with every session: "__Host-vc_csrf"
 * on a secure origin (a sibling site cannot plant a "__Host-" cookie), plain
 * "vc_csrf" on http://127.0.0.1 in development. The prefixed one wins.
 */
export const CSRF_COOKIE_NAMES = ['__Host-vc_csrf', 'vc_csrf'] as const

/** The session's CSRF token (echoed as X-CSRF-Token), or undefined without a session. */
export function readCsrfCookie(): string | undefined {
  for (const name of CSRF_COOKIE_NAMES) {
    const value = readCookie(name)
    if (value) return value
  }
  return undefined
}
