/** One failed API call, kept for the debug page and support messages. */
export interface RecordedApiError {
  at: string
  method: string
  path: string
  status: number
  code: string
  message: string
  requestId?: string
}

/** How many failed calls the ring keeps. */
export const API_ERROR_RING_SIZE = 20

const ring: RecordedApiError[] = []

/** Keeps e, dropping the oldest beyond API_ERROR_RING_SIZE. Query strings are left out (they may carry tokens). */
export function recordApiError(e: Omit<RecordedApiError, 'at' | 'path'> & { path: string; at?: string }): void {
  ring.push({ ...e, path: e.path.split('?')[0] ?? e.path, at: e.at ?? new Date().toISOString() })
  while (ring.length > API_ERROR_RING_SIZE) ring.shift()
}

/** The recorded errors, newest first. */
export function recentApiErrors(): RecordedApiError[] {
  return [...ring].reverse()
}

/** Empties the ring (tests). */
export function clearApiErrors(): void {
  ring.length = 0
}
