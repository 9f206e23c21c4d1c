import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, apiFetch } from './api'

type Call = { url: string; init: RequestInit }

function mockFetch(responses: Array<{ status: number; body?: unknown }>) {
  const calls: Call[] = []
  const fn = vi.fn(async (url: string, init: RequestInit) => {
    calls.push({ url, init })
    const next = responses.shift()
    if (!next) throw new TypeError('Failed to fetch')
    return new Response(next.body === undefined ? null : JSON.stringify(next.body), { status: next.status })
  })
  vi.stubGlobal('fetch', fn)
  return calls
}

// The CSRF header rules, the single-flight refresh and the paths that never
// refresh are tested once for both apps in session-client/index.test.ts; these
// cover how apiFetch sends requests and shapes answers, and that it goes
// through the shared refresh.
describe('apiFetch', () => {
  beforeEach(() => {
    document.cookie = 'vc_csrf=tok123; Path=/'
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    document.cookie = 'vc_csrf=; Path=/; Max-Age=0'
  })

  it('sends JSON, credentials and the CSRF header on unsafe methods only', async () => {
    const calls = mockFetch([{ status: 200, body: { ok: 1 } }, { status: 200, body: { ok: 2 } }])
    await apiFetch('/api/profile', { method: 'PUT', body: { first_name: 'Ana' } })
    await apiFetch('/api/profile')
    const [put, get] = calls
    const putHeaders = put!.init.headers as Record<string, string>
    expect(put!.init.credentials).toBe('include')
    expect(putHeaders['X-CSRF-Token']).toBe('tok123')
    expect(putHeaders['Content-Type']).toBe('application/json')
    expect(put!.init.body).toBe('{"first_name":"Ana"}')
    expect((get!.init.headers as Record<string, string>)['X-CSRF-Token']).toBeUndefined()
    expect(get!.init.method).toBe('GET')
  })

  it('sends extra headers, the same ones again on the retry after a refresh, without letting them replace the CSRF header', async () => {
    const calls = mockFetch([{ status: 401 }, { status: 200, body: { user: {} } }, { status: 201, body: { id: 'p1' } }])
    await apiFetch('/api/community/posts', { method: 'POST', body: { content: 'Oi' }, headers: { 'Idempotency-Key': 'k-1', 'X-CSRF-Token': 'forged' } })
    const first = calls[0]!.init.headers as Record<string, string>
    const retry = calls[2]!.init.headers as Record<string, string>
    expect(first['Idempotency-Key']).toBe('k-1')
    expect(retry['Idempotency-Key']).toBe('k-1')
    expect(first['X-CSRF-Token']).toBe('tok123')
  })

  it('on 401 refreshes the session once and retries', async () => {
    const calls = mockFetch([{ status: 401 }, { status: 200, body: { user: {} } }, { status: 200, body: { id: 'p1' } }])
    await expect(apiFetch('/api/profile')).resolves.toEqual({ id: 'p1' })
    expect(calls.map((c) => `${c.init.method} ${c.url}`)).toEqual(['GET /api/profile', 'POST /api/auth/refresh', 'GET /api/profile'])
  })

  it('gives up when the refresh fails', async () => {
    const calls = mockFetch([
      { status: 401, body: { error: { code: 'EUNAUTHORIZED', message: 'Usuário não autenticado' } } },
      { status: 401 },
    ])
    await expect(apiFetch('/api/auth/session')).rejects.toMatchObject({ status: 401, message: 'Usuário não autenticado' })
    expect(calls).toHaveLength(2)
  })

  it('passes noRefresh through: the auth screens get the raw 401', async () => {
    const calls = mockFetch([{ status: 401, body: { error: { code: 'EUNAUTHORIZED', message: 'Usuário não autenticado' } } }])
    await expect(apiFetch('/api/auth/session', { noRefresh: true })).rejects.toMatchObject({ status: 401, code: 'EUNAUTHORIZED' })
    expect(calls).toHaveLength(1)
  })

  it('throws ApiError with the server fields', async () => {
    mockFetch([{ status: 422, body: { error: { code: 'EINVALID', message: 'Erro ao atualizar perfil', fields: { title: 'Mínimo de 3 caracteres' } } } }])
    const err = await apiFetch('/api/profile', { method: 'PUT', body: {} }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ status: 422, code: 'EINVALID', message: 'Erro ao atualizar perfil', fields: { title: 'Mínimo de 3 caracteres' } })
  })

  it('turns a network failure into ENETWORK', async () => {
    mockFetch([])
    await expect(apiFetch('/api/profile')).rejects.toMatchObject({ status: 0, code: 'ENETWORK' })
  })

  it('resolves undefined for 204', async () => {
    mockFetch([{ status: 204 }])
    await expect(apiFetch('/api/auth/sessions/1', { method: 'DELETE' })).resolves.toBeUndefined()
  })
})
