import { vi } from 'vitest'

export interface Call {
  method: string
  path: string
  headers: Headers
  body: string
}

type Handler = (call: Call) => { status: number; json?: unknown } | undefined

/**
 * Replaces fetch with a scripted core API: each request is recorded and
 * answered by the first handler that returns a response.
 */
export function scriptFetch(handler: Handler) {
  const calls: Call[] = []
  vi.stubGlobal(
    'fetch',
    // httpClient sends Request objects; the shared session refresh sends (path, init).
    vi.fn(async (request: RequestInfo | URL, init?: RequestInit) => {
      const input = request instanceof Request ? request : new Request(new URL(String(request), window.location.origin), init)
      const call: Call = {
        method: input.method,
        path: new URL(input.url).pathname,
        headers: input.headers,
        body: input.body ? await input.text() : '',
      }
      calls.push(call)
      const answer = handler(call)
      if (!answer) throw new Error(`unexpected ${call.method} ${call.path}`)
      return new Response(answer.json === undefined ? null : JSON.stringify(answer.json), {
        status: answer.status,
        headers: { 'Content-Type': 'application/json' },
      })
    }),
  )
  return calls
}

export function setCookie(cookie: string) {
  document.cookie = cookie
}

export function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0].trim()
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
  }
}
