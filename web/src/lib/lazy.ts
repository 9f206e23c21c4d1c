import type { ComponentType } from 'react'

/** Waits before the 2nd and 3rd tries: 3 tries in all, 1 s then 2 s apart. */
export const RETRY_DELAYS_MS = [1000, 2000]

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

// A chunk that fails to load usually means a cached shell points at assets a
// new deploy removed: drop the caches so the next try reaches the network.
// Without signal a failed chunk is the network's fault, not a stale shell:
// the caches are then all the app has and are kept. Data kept for offline use
// (the 'vetclube-*' runtime caches: tools list, calculators' builds) is
// never the stale part and always stays.
async function clearCaches(): Promise<void> {
  if (typeof caches === 'undefined') return
  if (typeof navigator !== 'undefined' && navigator.onLine === false) return
  try {
    const keys = await caches.keys()
    await Promise.all(keys.filter((key) => !key.startsWith('vetclube-')).map((key) => caches.delete(key)))
  } catch {
    // Cache Storage can be unavailable (private mode); the retry still runs.
  }
}

/** Calls `load` up to 1 + delays.length times, clearing caches between tries. */
export async function retryImport<T>(load: () => Promise<T>, delays: number[] = RETRY_DELAYS_MS): Promise<T> {
  let lastError: unknown
  for (let attempt = 0; attempt <= delays.length; attempt++) {
    if (attempt > 0) {
      await clearCaches()
      await sleep(delays[attempt - 1]!)
    }
    try {
      return await load()
    } catch (err) {
      lastError = err
    }
  }
  throw lastError
}

/**
 * A react-router `lazy` function for a page module whose default export is the
 * page component.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  return async () => {
    const mod = await retryImport(load)
    return { Component: mod.default }
  }
}
