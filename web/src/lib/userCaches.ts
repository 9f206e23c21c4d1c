/**
 * Service-worker caches that hold one member's answers (the tools list, with
 * that member's plan locks). They go with the member's session: a sign-out or
 * another account on this device deletes them, like the query cache.
 */
export const USER_CACHES = ['vetclube-tools-list'] as const

export function clearUserCaches(): Promise<void> {
  if (typeof caches === 'undefined') return Promise.resolve()
  return Promise.all(USER_CACHES.map((name) => caches.delete(name).catch(() => false))).then(() => undefined)
}
