// Reading cookies, the CSRF cookie's names included, is shared with the
// backoffice (session-client/); writing app-owned cookies stays here.
export { readCookie, readCsrfCookie } from '@vetclube/session-client'

export function writeCookie(name: string, value: string, maxAgeSeconds: number): void {
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax`
}
