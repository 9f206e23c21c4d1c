import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { httpClient } from './httpClient'
import { clearCookies, scriptFetch, setCookie } from './testServer'

beforeEach(() => {
  clearCookies()
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('httpClient', () => {
  it('sends the vc_csrf cookie as X-CSRF-Token on writes only', async () => {
    setCookie('vc_csrf=token%2Fabc; path=/')
    const calls = scriptFetch(() => ({ status: 200, json: { ok: true } }))
    await httpClient('/api/admin/users/1/roles/editor', { method: 'POST' })
    await httpClient('/api/admin/users/1/roles/editor', { method: 'DELETE' })
    await httpClient('/api/admin/users')
    expect(calls.map((c) => [c.method, c.headers.get('X-CSRF-Token')])).toEqual([
      ['POST', 'token/abc'],
      ['DELETE', 'token/abc'],
      ['GET', null],
    ])
  })

  it('sends JSON bodies with a JSON content type', async () => {
    const calls = scriptFetch(() => ({ status: 200, json: {} }))
    await httpClient('/api/auth/login', { method: 'POST', body: { email: 'a@b.c', password: 'x' } })
    expect(calls[0].headers.get('Content-Type')).toBe('application/json')
    expect(JSON.parse(calls[0].body)).toEqual({ email: 'a@b.c', password: 'x' })
  })

  it('refreshes once on 401 and retries with the rotated CSRF cookie', async () => {
    setCookie('vc_csrf=old; path=/')
    let refreshed = false
    const calls = scriptFetch((call) => {
      if (call.path === '/api/auth/refresh') {
        refreshed = true
        setCookie('vc_csrf=new; path=/')
        return { status: 200, json: { user: {} } }
      }
      return refreshed ? { status: 200, json: { id: 'u1' } } : { status: 401, json: { error: { message: 'Usuário não autenticado' } } }
    })
    const res = await httpClient('/api/admin/users/u1/roles/editor', { method: 'POST' })
    expect(res.json).toEqual({ id: 'u1' })
    expect(calls.map((c) => `${c.method} ${c.path} ${c.headers.get('X-CSRF-Token')}`)).toEqual([
      'POST /api/admin/users/u1/roles/editor old',
      'POST /api/auth/refresh old',
      'POST /api/admin/users/u1/roles/editor new',
    ])
  })

  it('gives up after one failed refresh with the server message and status', async () => {
    setCookie('vc_csrf=c; path=/')
    const calls = scriptFetch(() => ({ status: 401, json: { error: { message: 'Usuário não autenticado' } } }))
    await expect(httpClient('/api/admin/users')).rejects.toMatchObject({ status: 401, message: 'Usuário não autenticado' })
    expect(calls.map((c) => c.path)).toEqual(['/api/admin/users', '/api/auth/refresh'])
  })

  it('does not try to refresh without the vc_csrf cookie (no session to revive)', async () => {
    const calls = scriptFetch(() => ({ status: 401, json: { error: { message: 'Usuário não autenticado' } } }))
    await expect(httpClient('/api/admin/users')).rejects.toMatchObject({ status: 401 })
    expect(calls.map((c) => c.path)).toEqual(['/api/admin/users'])
  })

  it('shares one refresh among parallel requests', async () => {
    setCookie('vc_csrf=c; path=/')
    let refreshed = false
    const calls = scriptFetch((call) => {
      if (call.path === '/api/auth/refresh') {
        refreshed = true
        return { status: 200, json: {} }
      }
      return refreshed ? { status: 200, json: [] } : { status: 401, json: {} }
    })
    await Promise.all([httpClient('/api/admin/users'), httpClient('/api/admin/users?x=1')])
    expect(calls.filter((c) => c.path === '/api/auth/refresh')).toHaveLength(1)
  })

  it('never tries to refresh a failed login', async () => {
    const calls = scriptFetch(() => ({ status: 401, json: { error: { message: 'Email ou senha incorretos' } } }))
    await expect(httpClient('/api/auth/login', { method: 'POST', body: {} })).rejects.toThrow('Email ou senha incorretos')
    expect(calls).toHaveLength(1)
  })
})

describe('the CSRF cookie on a secure origin', () => {
  afterEach(() => vi.restoreAllMocks())

  it('echoes __Host-vc_csrf, preferring it over a plain vc_csrf, and refreshes with it', async () => {
    // jsdom runs on http://, where a browser refuses to store "__Host-" cookies: read them as a secure page would.
    vi.spyOn(document, 'cookie', 'get').mockReturnValue('vc_csrf=planted; __Host-vc_csrf=host%2Ftok')
    let first = true
    const calls = scriptFetch((call) => {
      if (call.path === '/api/auth/refresh') return { status: 200, json: { user: {} } }
      if (first) {
        first = false
        return { status: 401, json: {} }
      }
      return { status: 200, json: {} }
    })
    await httpClient('/api/admin/users/1/roles/editor', { method: 'POST' })
    expect(calls.map((c) => [c.method, c.path, c.headers.get('X-CSRF-Token')])).toEqual([
      ['POST', '/api/admin/users/1/roles/editor', 'host/tok'],
      ['POST', '/api/auth/refresh', 'host/tok'],
      ['POST', '/api/admin/users/1/roles/editor', 'host/tok'],
    ])
  })
})
