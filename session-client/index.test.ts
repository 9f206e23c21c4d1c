// The session behaviour both apps share, tested once. web/ and admin/ both
// run this file (their vitest `include`), each in its own jsdom; their own
// tests cover only how they shape answers and errors.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  CSRF_HEADER,
  NO_REFRESH_PATHS,
  csrfHeaders,
  isRefreshablePath,
  readCsrfCookie,
  refreshSession,
  sendWithSession,
} from './index'

function setCookie(value: string) {
  document.cookie = `${value}; Path=/`
}

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim()
    if (name) document.cookie = `${name}=; Path=/; Max-Age=0`
  }
}

/** Stubs fetch for the refresh: records each call and answers with `status` (or rejects for 0). */
function stubRefresh(status: number, onRefresh?: () => void) {
  const calls: Array<{ url: string; init: RequestInit }> = []
  const fn = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, init })
    // Let concurrent callers reach refreshSession while this one is in flight.
    await new Promise((r) => setTimeout(r, 5))
    onRefresh?.()
    if (status === 0) throw new TypeError('Failed to fetch')
    return new Response(null, { status })
  })
  vi.stubGlobal('fetch', fn)
  return calls
}

/** An app transport: answers 401 until `ok()` says otherwise, recording the CSRF header of each call. */
function transport(ok: () => boolean) {
  const sent: Array<string | undefined> = []
  const send = vi.fn(async () => {
    sent.push(csrfHeaders('POST')[CSRF_HEADER])
    return { status: ok() ? 200 : 401 }
  })
  return { send, sent }
}

beforeEach(() => clearCookies())
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  clearCookies()
})

describe('readCsrfCookie', () => {
  it('finds the session token under either name, the __Host- one first', () => {
    const cookie = vi.spyOn(document, 'cookie', 'get')
    cookie.mockReturnValue('theme=dark; vc_csrf=plain')
    expect(readCsrfCookie()).toBe('plain')
    cookie.mockReturnValue('__Host-vc_csrf=a%2Fb; theme=dark')
    expect(readCsrfCookie()).toBe('a/b')
    // jsdom runs on http://, where a browser refuses to store "__Host-" cookies: read them as a secure page would.
    cookie.mockReturnValue('vc_csrf=planted; __Host-vc_csrf=real')
    expect(readCsrfCookie()).toBe('real')
    cookie.mockReturnValue('theme=dark; x_vc_csrf=no; vc_csrf_old=no')
    expect(readCsrfCookie()).toBeUndefined()
  })
})

describe('csrfHeaders', () => {
  it('carries the token on unsafe methods only', () => {
    setCookie('vc_csrf=tok%2F1')
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'post', 'delete']) {
      expect(csrfHeaders(method)).toEqual({ 'X-CSRF-Token': 'tok/1' })
    }
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'get']) expect(csrfHeaders(method)).toEqual({})
  })

  it('is empty without a session', () => {
    expect(csrfHeaders('POST')).toEqual({})
  })

  it('prefers __Host-vc_csrf over a planted vc_csrf', () => {
    vi.spyOn(document, 'cookie', 'get').mockReturnValue('vc_csrf=planted; __Host-vc_csrf=host%2Ftok')
    expect(csrfHeaders('PUT')).toEqual({ 'X-CSRF-Token': 'host/tok' })
  })
})

describe('sendWithSession', () => {
  it('on 401 refreshes once and sends again with the rotated CSRF token', async () => {
    setCookie('vc_csrf=old')
    let refreshed = false
    const calls = stubRefresh(200, () => {
      refreshed = true
      setCookie('vc_csrf=new')
    })
    const { send, sent } = transport(() => refreshed)
    await expect(sendWithSession('/api/profile', send)).resolves.toEqual({ status: 200 })
    expect(sent).toEqual(['old', 'new'])
    expect(calls).toHaveLength(1)
    expect(calls[0]!.url).toBe('/api/auth/refresh')
    expect(calls[0]!.init.method).toBe('POST')
    // The refresh cookie authenticates the refresh, so it carries the token it had.
    expect((calls[0]!.init.headers as Record<string, string>)['X-CSRF-Token']).toBe('old')
  })

  it('shares one refresh among concurrent 401s', async () => {
    setCookie('vc_csrf=c')
    let refreshed = false
    const calls = stubRefresh(200, () => (refreshed = true))
    const a = transport(() => refreshed)
    const b = transport(() => refreshed)
    const results = await Promise.all([sendWithSession('/api/profile', a.send), sendWithSession('/api/admin/users?x=1', b.send)])
    expect(results).toEqual([{ status: 200 }, { status: 200 }])
    expect(calls).toHaveLength(1)
    expect(a.send).toHaveBeenCalledTimes(2)
    expect(b.send).toHaveBeenCalledTimes(2)
  })

  it('starts a new refresh once the previous one has settled', async () => {
    setCookie('vc_csrf=c')
    const calls = stubRefresh(401)
    expect(await refreshSession()).toBe(false)
    expect(await refreshSession()).toBe(false)
    expect(calls).toHaveLength(2)
  })

  it('answers the 401 without a retry when the refresh fails', async () => {
    setCookie('vc_csrf=c')
    const calls = stubRefresh(401)
    const { send } = transport(() => false)
    await expect(sendWithSession('/api/profile', send)).resolves.toEqual({ status: 401 })
    expect(send).toHaveBeenCalledTimes(1)
    expect(calls).toHaveLength(1)
  })

  it('treats a refresh that cannot reach the server as failed', async () => {
    setCookie('vc_csrf=c')
    stubRefresh(0)
    await expect(refreshSession()).resolves.toBe(false)
  })

  it('does not refresh without a session cookie', async () => {
    const calls = stubRefresh(200)
    const { send } = transport(() => false)
    await expect(sendWithSession('/api/profile', send)).resolves.toEqual({ status: 401 })
    expect(calls).toHaveLength(0)
  })

  it('does not refresh when the caller asks for the raw answer', async () => {
    setCookie('vc_csrf=c')
    const calls = stubRefresh(200)
    const { send } = transport(() => false)
    await sendWithSession('/api/auth/session', send, { noRefresh: true })
    expect(calls).toHaveLength(0)
  })

  it('leaves answers other than 401 alone', async () => {
    setCookie('vc_csrf=c')
    const calls = stubRefresh(200)
    for (const status of [200, 403, 500]) {
      await expect(sendWithSession('/api/profile', async () => ({ status }))).resolves.toEqual({ status })
    }
    expect(calls).toHaveLength(0)
  })

  it.each([
    ...NO_REFRESH_PATHS,
    '/api/auth/confirm/resend',
    '/api/auth/password/forgot',
    '/api/auth/password/reset',
    '/api/auth/login?next=%2F',
    'http://127.0.0.1:8080/api/auth/logout',
  ])('never refreshes for %s', async (path) => {
    setCookie('vc_csrf=c')
    const calls = stubRefresh(200)
    const { send } = transport(() => false)
    await expect(sendWithSession(path, send)).resolves.toEqual({ status: 401 })
    expect(send).toHaveBeenCalledTimes(1)
    expect(calls).toHaveLength(0)
  })
})

describe('isRefreshablePath', () => {
  it('matches whole path segments only', () => {
    expect(isRefreshablePath('/api/auth/session')).toBe(true)
    expect(isRefreshablePath('/api/auth/sessions/1')).toBe(true)
    expect(isRefreshablePath('/api/auth/loginx')).toBe(true)
    expect(isRefreshablePath('/api/profile?from=/api/auth/login')).toBe(true)
    expect(isRefreshablePath('/api/auth/login')).toBe(false)
    expect(isRefreshablePath('/api/auth/password/reset')).toBe(false)
  })
})
