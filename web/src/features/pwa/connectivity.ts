import { useEffect, useState } from 'react'

export const PROBE_INTERVAL_MS = 30_000
export const RESTORED_BANNER_MS = 5_000

/**
 * HEAD request to the favicon; the cache-busting query keeps both the HTTP
 * cache and the service worker's precache from answering for the network.
 */
export async function probeOnline(fetchImpl: typeof fetch = fetch): Promise<boolean> {
  try {
    const res = await fetchImpl(`/favicon.svg?probe=${Date.now()}`, { method: 'HEAD', cache: 'no-store' })
    return res.ok
  } catch {
    return false
  }
}

/** Online state from browser events plus a probe every 30 s (navigator.onLine alone misses a dead network). */
export function useOnlineStatus(): boolean {
  const [online, setOnline] = useState(() => (typeof navigator === 'undefined' ? true : navigator.onLine))
  useEffect(() => {
    let cancelled = false
    const goOnline = () => setOnline(true)
    const goOffline = () => setOnline(false)
    window.addEventListener('online', goOnline)
    window.addEventListener('offline', goOffline)
    const timer = setInterval(async () => {
      // The browser knows it has no network: no point probing.
      if (!navigator.onLine) return setOnline(false)
      const ok = await probeOnline()
      if (!cancelled) setOnline(ok)
    }, PROBE_INTERVAL_MS)
    return () => {
      cancelled = true
      window.removeEventListener('online', goOnline)
      window.removeEventListener('offline', goOffline)
      clearInterval(timer)
    }
  }, [])
  return online
}
