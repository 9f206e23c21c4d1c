import { describe, expect, it, vi } from 'vitest'
import type { PersistedClient } from '@tanstack/react-query-persist-client'
import { QueryClient } from '@tanstack/react-query'
import { localStoragePersister, revalidateRestored, shouldPersistQuery } from './persistence'

const client = (n: number) => ({ timestamp: n, buster: 'b', clientState: { queries: [], mutations: [] } }) as PersistedClient

function query(key: unknown[], status: 'success' | 'error' = 'success') {
  return { queryKey: key, state: { status } } as never
}

describe('query persistence', () => {
  it('keeps successful data, never sign-in options or preview tokens', () => {
    expect(shouldPersistQuery(query(['profile', 'me']))).toBe(true)
    expect(shouldPersistQuery(query(['content', 'noticias', 'list']))).toBe(true)
    expect(shouldPersistQuery(query(['profile', 'me'], 'error'))).toBe(false)
    expect(shouldPersistQuery(query(['auth', 'providers']))).toBe(false)
    expect(shouldPersistQuery(query(['content', 'preview', 'token']))).toBe(false)
  })

  it('writes the latest snapshot once per delay, restores it and removes it', () => {
    vi.useFakeTimers()
    const storage = new Map<string, string>()
    const fake = {
      getItem: (k: string) => storage.get(k) ?? null,
      setItem: vi.fn((k: string, v: string) => void storage.set(k, v)),
      removeItem: (k: string) => void storage.delete(k),
    } as unknown as Storage
    const p = localStoragePersister(fake, 'k', 1000)
    p.persistClient(client(1))
    p.persistClient(client(2))
    expect(fake.setItem).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1000)
    expect(fake.setItem).toHaveBeenCalledTimes(1)
    expect(p.restoreClient()).toEqual(client(2))
    p.removeClient()
    expect(p.restoreClient()).toBeUndefined()
    vi.useRealTimers()
  })

  it('survives a full storage and an unreadable snapshot', () => {
    vi.useFakeTimers()
    const fake = {
      getItem: () => '{not json',
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError')
      },
      removeItem: vi.fn(),
    } as unknown as Storage
    const p = localStoragePersister(fake, 'k', 10)
    p.persistClient(client(1))
    vi.advanceTimersByTime(10)
    expect(fake.removeItem).toHaveBeenCalledWith('k')
    expect(p.restoreClient()).toBeUndefined()
    vi.useRealTimers()
  })

  it("marks data restored from an earlier page load stale and leaves this load's data fresh", async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { staleTime: 5 * 60_000 } } })
    const loadedAt = Date.now()
    qc.setQueryData(['content', 'noticias', 'detail'], { title: 'antigo' }, { updatedAt: loadedAt - 60_000 })
    qc.setQueryData(['profile', 'me'], { first_name: 'Ana' }, { updatedAt: loadedAt + 10 })
    await revalidateRestored(qc, loadedAt)
    expect(qc.getQueryState(['content', 'noticias', 'detail'])?.isInvalidated).toBe(true)
    expect(qc.getQueryState(['profile', 'me'])?.isInvalidated).toBe(false)
  })

  it('keeps restored data as it is while offline and revalidates it when the signal returns', async () => {
    const qc = new QueryClient({ defaultOptions: { queries: { staleTime: 5 * 60_000 } } })
    const loadedAt = Date.now()
    qc.setQueryData(['profile', 'me'], { first_name: 'Ana' }, { updatedAt: loadedAt - 60_000 })
    const done = revalidateRestored(qc, loadedAt, { onLine: false })
    await Promise.resolve()
    expect(qc.getQueryState(['profile', 'me'])?.isInvalidated).toBe(false)
    window.dispatchEvent(new Event('online'))
    await done
    expect(qc.getQueryState(['profile', 'me'])?.isInvalidated).toBe(true)
  })
})
