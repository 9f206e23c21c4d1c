import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '@/lib/api'
import { PUSH_MESSAGES } from './messages'
import { PUBLIC_KEY_CACHE, PUBLIC_KEY_TTL_MS, getPublicKey } from './publicKey'

afterEach(() => {
  localStorage.clear()
  vi.unstubAllGlobals()
})

const unavailable = () =>
  new Response(JSON.stringify({ error: { code: 'EUNAVAILABLE', message: PUSH_MESSAGES.unavailable } }), { status: 503 })
const key = (k: string) => new Response(JSON.stringify({ public_key: k }), { status: 200 })

describe('getPublicKey', () => {
  it('tries again after 1 s and 2 s when the server answers 5xx', async () => {
    const fetchMock = vi.fn().mockResolvedValueOnce(unavailable()).mockResolvedValueOnce(unavailable()).mockResolvedValueOnce(key('BKey'))
    vi.stubGlobal('fetch', fetchMock)
    const sleeps: number[] = []
    const k = await getPublicKey({ sleep: async (ms) => void sleeps.push(ms) })
    expect(k).toBe('BKey')
    expect(sleeps).toEqual([1000, 2000])
    expect(fetchMock).toHaveBeenCalledTimes(3)
    expect(String(fetchMock.mock.calls[0]![0])).toBe('/api/push/vapid-key')
  })

  it('gives up after two retries with the unavailable message', async () => {
    const fetchMock = vi.fn().mockImplementation(async () => unavailable())
    vi.stubGlobal('fetch', fetchMock)
    await expect(getPublicKey({ sleep: async () => {} })).rejects.toThrow(PUSH_MESSAGES.unavailable)
    expect(fetchMock).toHaveBeenCalledTimes(3)
    expect(localStorage.getItem(PUBLIC_KEY_CACHE)).toBeNull()
  })

  it('never retries a 4xx', async () => {
    const fetchKey = vi.fn().mockRejectedValue(new ApiError(401, 'EUNAUTHORIZED', 'Não autenticado'))
    const sleep = vi.fn()
    await expect(getPublicKey({ fetchKey, sleep })).rejects.toThrow('Não autenticado')
    expect(fetchKey).toHaveBeenCalledTimes(1)
    expect(sleep).not.toHaveBeenCalled()
  })

  it('keeps the key 24 h in localStorage', async () => {
    let now = 1_000_000
    const fetchKey = vi.fn().mockResolvedValueOnce({ public_key: 'first' }).mockResolvedValueOnce({ public_key: 'second' })
    expect(await getPublicKey({ fetchKey, now: () => now })).toBe('first')
    now += PUBLIC_KEY_TTL_MS - 1
    expect(await getPublicKey({ fetchKey, now: () => now })).toBe('first')
    expect(fetchKey).toHaveBeenCalledTimes(1)
    now += 1
    expect(await getPublicKey({ fetchKey, now: () => now })).toBe('second')
    expect(fetchKey).toHaveBeenCalledTimes(2)
    expect(JSON.parse(localStorage.getItem(PUBLIC_KEY_CACHE)!)).toEqual({ key: 'second', at: now })
  })

  it('maps a failure to reach the server to the connectivity message', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')))
    await expect(getPublicKey({ sleep: async () => {} })).rejects.toThrow(PUSH_MESSAGES.network)
  })
})
