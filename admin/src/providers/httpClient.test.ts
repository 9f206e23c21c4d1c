import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { httpClient } from './httpClient'
import { clearCookies, scriptFetch, setCookie } from './testServer'

beforeEach(() => {
  clearCookies()
})
afterEach(() => {
  vi.unstubAllGlobals()
})

// The CSRF header rules, the single-flight refresh and the paths that never
// refresh are tested once for both apps in session-client/index.test.ts; these
// cover the react-admin shapes and that httpClient goes through the shared core.
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

  it('sends FormData as multipart, with the CSRF header and without a JSON content type', async () => {
    setCookie('vc_csrf=c; path=/')
    const calls = scriptFetch(() => ({ status: 201, json: { key: 'k' } }))
    const form = new FormData()
    form.append('file', new Blob(['x']), 'a.txt')
    const res = await httpClient('/api/admin/content/uploads?kind=file', { method: 'POST', body: form })
    expect(res.json).toEqual({ key: 'k' })
    expect(calls[0].headers.get('Content-Type')).not.toBe('application/json')
    expect(calls[0].headers.get('X-CSRF-Token')).toBe('c')
  })

  it('answers react-admin shapes: status, headers, raw body and parsed JSON', async () => {
    scriptFetch(() => ({ status: 200, json: [{ id: 1 }] }))
    const res = await httpClient('/api/admin/users')
    expect(res.status).toBe(200)
    expect(res.headers.get('Content-Type')).toBe('application/json')
    expect(res.body).toBe('[{"id":1}]')
    expect(res.json).toEqual([{ id: 1 }])
  })

  it('throws an HttpError with the status and body when the server has no message', async () => {
    scriptFetch(() => ({ status: 409, json: { message: 'Versão desatualizada' } }))
    await expect(httpClient('/api/admin/content/noticias/1', { method: 'PUT', body: {} })).rejects.toMatchObject({
      name: 'HttpError',
      status: 409,
      message: 'Versão desatualizada',
      body: { message: 'Versão desatualizada' },
    })
  })
})
