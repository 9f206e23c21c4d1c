import { useCallback, useRef } from 'react'

/** A random UUID; crypto.randomUUID exists only in secure contexts, so plain-http LAN testing falls back. */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/**
 * One idempotency key per draft: every attempt to send the same draft (a double
 * click, the user's retry after an error, the query client's own retries)
 * carries the same key, so the server creates it once. Changing the draft, or
 * a success, starts a new key.
 */
export function useDraftKey() {
  const entry = useRef<{ draft: string; key: string } | null>(null)
  const keyFor = useCallback((draft: string) => {
    if (entry.current?.draft !== draft) entry.current = { draft, key: newIdempotencyKey() }
    return entry.current.key
  }, [])
  const reset = useCallback(() => {
    entry.current = null
  }, [])
  return { keyFor, reset }
}
