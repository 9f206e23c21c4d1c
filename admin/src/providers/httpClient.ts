import { HttpError } from 'ra-core'

/**
 * The CSRF cookie the core sets next to the session cookies: "__Host-vc_csrf"
 * on a secure origin, plain "vc_csrf" on http://127.0.0.1 in development.
 */
export const CSRF_COOKIE = 'vc_csrf'
export const CSRF_COOKIE_NAMES = ['__Host-' + CSRF_COOKIE, CSRF_COOKIE] as const
export const CSRF_HEADER = 'X-CSRF-Token'

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
// These answer 401 as a result, not because the access cookie expired.
const NO_REFRESH_PATHS = ['/api/auth/login', '/api/auth/refresh', '/api/auth/logout']

export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=')
    if (key === name) return decodeURIComponent(rest.join('='))
  }
  return undefined
}

/** The session's CSRF token under either name (the prefixed one wins), or undefined. */
export function readCsrfCookie(): string | undefined {
  for (const name of CSRF_COOKIE_NAMES) {
    const value = readCookie(name)
    if (value) return value
  }
  return undefined
}

export interface JsonResponse {
  status: number
  headers: Headers
  body: string
  json: any
}

export interface RequestOptions {
  method?: string
  body?: unknown
  headers?: HeadersInit
}

function buildRequest(url: string, options: RequestOptions): Request {
  const method = (options.method ?? 'GET').toUpperCase()
  const headers = new Headers(options.headers)
  headers.set('Accept', 'application/json')
  let body: BodyInit | undefined
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
    if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json')
  }
  if (UNSAFE_METHODS.has(method)) {
    const csrf = readCsrfCookie()
    if (csrf) headers.set(CSRF_HEADER, csrf)
  }
  return new Request(new URL(url, window.location.origin), { method, headers, body, credentials: 'same-origin' })
}

// Parallel requests that all meet an expired access cookie share one refresh:
// the refresh token rotates, so a second concurrent refresh would fail.
let refreshing: Promise<boolean> | null = null

export function refreshSession(): Promise<boolean> {
  refreshing ??= fetch(buildRequest('/api/auth/refresh', { method: 'POST' }))
    .then((res) => res.ok)
    .catch(() => false)
    .finally(() => {
      refreshing = null
    })
  return refreshing
}

function errorMessage(json: any, status: number, statusText: string): string {
  return json?.error?.message ?? json?.message ?? (statusText || `HTTP ${status}`)
}

/**
 * fetch for the core's API with the browser's session cookies: JSON in and
 * out, the CSRF header on writes, and one refresh plus retry when the access
 * cookie has expired (401). Errors are react-admin HttpErrors carrying the
 * server's pt-BR message.
 */
export async function httpClient(url: string, options: RequestOptions = {}): Promise<JsonResponse> {
  let res = await fetch(buildRequest(url, options))
  const path = new URL(url, window.location.origin).pathname
  // Without the CSRF cookie there is no refresh cookie either (both share one
  // lifetime), and the server would refuse the refresh anyway.
  if (res.status === 401 && !NO_REFRESH_PATHS.includes(path) && readCsrfCookie() && (await refreshSession())) {
    // Rebuilt so the retry carries the rotated CSRF cookie.
    res = await fetch(buildRequest(url, options))
  }
  const body = await res.text()
  let json: any
  try {
    json = body ? JSON.parse(body) : undefined
  } catch {
    json = undefined
  }
  if (!res.ok) {
    throw new HttpError(errorMessage(json, res.status, res.statusText), res.status, json)
  }
  return { status: res.status, headers: res.headers, body, json }
}
