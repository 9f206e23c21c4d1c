import { HttpError } from 'ra-core'
import { csrfHeaders, readCsrfCookie, refreshSession, sendWithSession } from '@vetclube/session-client'

// The CSRF cookie and header, the single-flight refresh and the retry live in
// session-client/ (shared with the PWA); this module owns the transport and
// react-admin's answer and error shapes. The media uploader (tus, its own
// transport) takes the CSRF header and the refresh from here too.
export { csrfHeaders, readCsrfCookie, refreshSession }

export interface JsonResponse {
  status: number
  headers: Headers
  body: string
  json: any
}

export interface RequestOptions {
  method?: string
  /** Sent as JSON, or as it is when a string or FormData (multipart: the browser sets the boundary). */
  body?: unknown
  headers?: HeadersInit
}

function buildRequest(url: string, options: RequestOptions): Request {
  const method = (options.method ?? 'GET').toUpperCase()
  const headers = new Headers(options.headers)
  headers.set('Accept', 'application/json')
  let body: BodyInit | undefined
  if (options.body instanceof FormData) {
    body = options.body
  } else if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
    if (!headers.has('Content-Type')) headers.set('Content-Type', 'application/json')
  }
  for (const [name, value] of Object.entries(csrfHeaders(method))) headers.set(name, value)
  return new Request(new URL(url, window.location.origin), { method, headers, body, credentials: 'same-origin' })
}

function errorMessage(json: any, status: number, statusText: string): string {
  // {"error":{"message":…}} from most routes, {"error":"…"} from some (media's 409).
  if (typeof json?.error === 'string' && json.error) return json.error
  return json?.error?.message ?? json?.message ?? (statusText || `HTTP ${status}`)
}

/**
 * fetch for the core's API with the browser's session cookies: JSON in and
 * out, the CSRF header on writes, and one refresh plus retry when the access
 * cookie has expired (401). Errors are react-admin HttpErrors carrying the
 * server's pt-BR message.
 */
export async function httpClient(url: string, options: RequestOptions = {}): Promise<JsonResponse> {
  // Built on every send, so the retry carries the rotated CSRF cookie.
  const res = await sendWithSession(url, () => fetch(buildRequest(url, options)))
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
