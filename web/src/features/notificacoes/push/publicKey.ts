import { ApiError, apiFetch } from '@/lib/api'
import { PUSH_MESSAGES, PushError } from './messages'

export const PUBLIC_KEY_CACHE = 'vetclube-push-public-key'
export const PUBLIC_KEY_TTL_MS = 24 * 60 * 60 * 1000
/** Waits before the 2nd and 3rd tries on a 5xx (2 retries, 1 s then 2 s). */
export const PUBLIC_KEY_RETRY_DELAYS_MS = [1000, 2000] as const

interface CachedKey {
  key: string
  at: number
}

export interface PublicKeyDeps {
  fetchKey?: () => Promise<{ public_key: string }>
  storage?: Storage
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

const defaultFetch = () => apiFetch<{ public_key: string }>('/api/push/vapid-key')
const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

function readCache(storage: Storage | undefined, now: number): string | null {
  try {
    const raw = storage?.getItem(PUBLIC_KEY_CACHE)
    if (!raw) return null
    const cached = JSON.parse(raw) as CachedKey
    if (typeof cached.key !== 'string' || !cached.key || now - cached.at >= PUBLIC_KEY_TTL_MS) return null
    return cached.key
  } catch {
    return null
  }
}

/** Forgets the cached key (the push service refused it, or the server rotated it). */
export function forgetPublicKey(storage: Storage | undefined = globalThis.localStorage): void {
  try {
    storage?.removeItem(PUBLIC_KEY_CACHE)
  } catch {
    // Storage disabled: nothing was cached.
  }
}

/**
 * The server's VAPID public key: from localStorage for 24 h, otherwise from
 * GET /api/push/vapid-key, tried again after 1 s and 2 s when the server
 * answers 5xx. Fails with a PushError carrying the message to show.
 */
export async function getPublicKey(deps: PublicKeyDeps = {}): Promise<string> {
  const storage = deps.storage ?? globalThis.localStorage
  const now = deps.now ?? Date.now
  const fetchKey = deps.fetchKey ?? defaultFetch
  const sleep = deps.sleep ?? defaultSleep

  const cached = readCache(storage, now())
  if (cached) return cached

  for (let attempt = 0; ; attempt++) {
    try {
      const { public_key: key } = await fetchKey()
      if (!key) throw new PushError(PUSH_MESSAGES.unavailable)
      try {
        storage?.setItem(PUBLIC_KEY_CACHE, JSON.stringify({ key, at: now() } satisfies CachedKey))
      } catch {
        // A full storage only costs a request next time.
      }
      return key
    } catch (err) {
      const serverError = err instanceof ApiError && err.status >= 500
      const delay = PUBLIC_KEY_RETRY_DELAYS_MS[attempt]
      if (serverError && delay !== undefined) {
        await sleep(delay)
        continue
      }
      throw toPushError(err)
    }
  }
}

function toPushError(err: unknown): PushError {
  if (err instanceof PushError) return err
  if (err instanceof ApiError) {
    if (err.status === 0) return new PushError(PUSH_MESSAGES.network)
    if (err.status === 503) return new PushError(PUSH_MESSAGES.unavailable)
    return new PushError(err.message)
  }
  return new PushError(PUSH_MESSAGES.enableFailed)
}
