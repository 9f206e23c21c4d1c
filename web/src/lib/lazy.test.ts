import { afterEach, describe, expect, it, vi } from 'vitest'
import { RETRY_DELAYS_MS, retryImport } from '@/lib/lazy'

describe('lazy chunk retry', () => {
  afterEach(() => {
    vi.useRealTimers()
    vi.unstubAllGlobals()
  })

  it('tries 3 times, waiting 1 s then 2 s, clearing caches between tries', async () => {
    vi.useFakeTimers()
    const deleted: string[] = []
    vi.stubGlobal('caches', { keys: async () => ['workbox-precache'], delete: async (k: string) => deleted.push(k) })
    let calls = 0
    const load = vi.fn(async () => {
      calls++
      if (calls < 3) throw new TypeError('Failed to fetch dynamically imported module')
      return 'page'
    })
    const result = retryImport(load)
    await vi.advanceTimersByTimeAsync(999)
    expect(load).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(load).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(1999)
    expect(load).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(1)
    await expect(result).resolves.toBe('page')
    expect(load).toHaveBeenCalledTimes(3)
    expect(deleted).toEqual(['workbox-precache', 'workbox-precache'])
    expect(RETRY_DELAYS_MS).toEqual([1000, 2000])
  })

  it('rethrows the last error after the third failure', async () => {
    const load = vi.fn(async () => {
      throw new Error('chunk missing')
    })
    await expect(retryImport(load, [0, 0])).rejects.toThrow('chunk missing')
    expect(load).toHaveBeenCalledTimes(3)
  })
})
