import type { Query, QueryClient } from '@tanstack/react-query'
import type { PersistedClient, Persister } from '@tanstack/react-query-persist-client'

/**
 * The query cache kept in localStorage, so a reload without signal still
 * shows the last profile, balance, plan, specialties, news and tools instead
 * of an empty app. Restored data is shown as it was and revalidated as soon as
 * the network answers; it is dropped after a day, with every new build, and
 * on sign-out (the cache is cleared then, and the empty cache saved).
 */
export const PERSISTED_CACHE_KEY = 'vc-query-cache'
export const PERSISTED_MAX_AGE_MS = 24 * 60 * 60 * 1000

// Never kept: single-use preview tokens and the sign-in options (they must
// be read fresh).
const NOT_PERSISTED = new Set(['auth'])

export function shouldPersistQuery(query: Query): boolean {
  if (query.state.status !== 'success') return false
  const [root, second] = query.queryKey as unknown[]
  if (typeof root === 'string' && NOT_PERSISTED.has(root)) return false
  return !(root === 'content' && second === 'preview')
}

/**
 * A localStorage persister. Writes are gathered for a second (a page load
 * settles a dozen queries); a full or unavailable storage just means nothing
 * is kept.
 */
export function localStoragePersister(storage: Storage | undefined = globalThis.localStorage, key = PERSISTED_CACHE_KEY, delayMs = 1000): Persister {
  let timer: ReturnType<typeof setTimeout> | undefined
  let pending: PersistedClient | undefined
  const write = () => {
    timer = undefined
    if (!pending) return
    try {
      storage?.setItem(key, JSON.stringify(pending))
    } catch {
      // Quota exceeded or storage disabled: nothing is kept this time.
      storage?.removeItem(key)
    }
    pending = undefined
  }
  return {
    persistClient(client) {
      pending = client
      timer ??= setTimeout(write, delayMs)
    },
    restoreClient() {
      try {
        const raw = storage?.getItem(key)
        return raw ? (JSON.parse(raw) as PersistedClient) : undefined
      } catch {
        return undefined
      }
    },
    removeClient() {
      clearTimeout(timer)
      timer = undefined
      pending = undefined
      storage?.removeItem(key)
    },
  }
}

/**
 * Marks every query restored from storage as stale, so each one on screen is
 * fetched again at once: restored data is only a stand-in while the network
 * answers, never a reason to skip a request for five minutes. Queries fetched
 * during this page load (the warm-up's, say) are newer and left alone.
 */
export function revalidateRestored(client: QueryClient, pageLoadedAt: number = performance.timeOrigin, nav: Pick<Navigator, 'onLine'> | undefined = globalThis.navigator): Promise<void> {
  const revalidate = () => client.invalidateQueries({ predicate: (q) => q.state.dataUpdatedAt > 0 && q.state.dataUpdatedAt < pageLoadedAt })
  // Without signal every refetch would fail and turn the restored data into
  // an error page: the restored data stays as it is until the signal returns.
  if (nav && nav.onLine === false && typeof window !== 'undefined') {
    return new Promise((resolve) => window.addEventListener('online', () => void revalidate().then(resolve), { once: true }))
  }
  return revalidate()
}
