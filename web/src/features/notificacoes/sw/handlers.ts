// The service worker's push side, loaded into /sw-unified.js through
// importScripts('/sw-push.js') (built from pushWorker.ts by
// build-plugins/pushWorker.ts). It imports nothing: it runs in the worker,
// away from the app's bundle. The types below are the few parts of the
// ServiceWorkerGlobalScope it uses, so it type-checks with the DOM lib and the
// unit tests can pass a stand-in scope.

/** What the server's push message carries (JSON); every field optional. */
export interface PushPayload {
  title: string
  body: string
  icon: string
  badge: string
  url: string
  tag: string
  unreadCount?: number
}

export const NOTIFICATION_CLICK_MESSAGE = 'NOTIFICATION_CLICK'
export const BADGE_MESSAGE = 'BADGE_UPDATE'
/** A notification shown while the app is in front closes after 5 s. */
export const FOREGROUND_CLOSE_MS = 5000
const DEFAULT_ICON = '/icons/icon-192.png'
const DEFAULT_BADGE = '/icons/icon-192.png'

interface ShownNotification {
  data?: unknown
  tag?: string
  close: () => void
}

interface WindowClientLike {
  url: string
  focused?: boolean
  visibilityState?: string
  focus: () => Promise<unknown>
  postMessage: (message: unknown) => void
}

export interface WorkerScope {
  location: { origin: string }
  registration: {
    showNotification: (title: string, options: NotificationOptions) => Promise<void>
    getNotifications: (filter?: { tag?: string }) => Promise<ShownNotification[]>
  }
  clients: {
    matchAll: (options: { type: 'window'; includeUncontrolled: boolean }) => Promise<readonly WindowClientLike[]>
    openWindow: (url: string) => Promise<unknown>
  }
  navigator: { setAppBadge?: (count?: number) => Promise<void>; clearAppBadge?: () => Promise<void> }
  sleep?: (ms: number) => Promise<void>
}

function text(v: unknown): string {
  return typeof v === 'string' ? v : ''
}

/**
 * Reads a push message. The server sends {title, body, icon, badge, url, tag,
 * unread_count}; 'message' and data.url / link are accepted too, and a bare
 * text becomes the body.
 */
export function parsePushPayload(raw: string | null | undefined, now: number = Date.now()): PushPayload {
  let obj: Record<string, unknown> = {}
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw)
      obj = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : { body: String(parsed) }
    } catch {
      obj = { body: raw }
    }
  }
  const data = (obj.data && typeof obj.data === 'object' ? obj.data : {}) as Record<string, unknown>
  const count = obj.unread_count ?? obj.badge_count
  return {
    title: text(obj.title) || 'VetClube',
    body: text(obj.body) || text(obj.message),
    icon: text(obj.icon) || DEFAULT_ICON,
    badge: text(obj.badge) || DEFAULT_BADGE,
    url: text(obj.url) || text(data.url) || text(obj.link) || '/',
    // A tag of its own, so the foreground close below finds this one only.
    tag: text(obj.tag) || `vetclube-${now}`,
    unreadCount: typeof count === 'number' ? count : undefined,
  }
}

/** The target as an absolute URL on our origin; anything else opens the home. */
export function targetUrl(url: unknown, origin: string): string {
  try {
    const u = new URL(typeof url === 'string' && url ? url : '/', origin)
    return u.origin === origin ? u.href : new URL('/', origin).href
  } catch {
    return new URL('/', origin).href
  }
}

function appBadge(scope: WorkerScope, count: number | undefined): Promise<void> {
  if (count === undefined) return Promise.resolve()
  const nav = scope.navigator
  const done = count > 0 ? nav.setAppBadge?.(count) : nav.clearAppBadge?.()
  return (done ?? Promise.resolve()).catch(() => {})
}

/** push: show the notification; when the app is on screen, close it after 5 s. */
export async function handlePush(scope: WorkerScope, raw: string | null): Promise<void> {
  const p = parsePushPayload(raw)
  await scope.registration.showNotification(p.title, {
    body: p.body,
    icon: p.icon,
    badge: p.badge,
    tag: p.tag,
    data: { url: p.url },
  })
  await appBadge(scope, p.unreadCount)
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true })
  if (!windows.some((c) => c.visibilityState === 'visible' && c.focused)) return
  await (scope.sleep ?? ((ms) => new Promise<void>((r) => setTimeout(r, ms))))(FOREGROUND_CLOSE_MS)
  for (const n of await scope.registration.getNotifications({ tag: p.tag })) n.close()
}

/**
 * notificationclick: an open window of the app is focused and told where to
 * go (the page decides between in-app navigation and a full reload, see
 * clickNavigation); with none open, a new window opens on the target.
 */
export async function handleNotificationClick(scope: WorkerScope, notification: ShownNotification): Promise<void> {
  notification.close()
  const data = (notification.data ?? {}) as { url?: unknown }
  const url = targetUrl(data.url, scope.location.origin)
  const windows = (await scope.clients.matchAll({ type: 'window', includeUncontrolled: true })).filter((c) =>
    c.url.startsWith(scope.location.origin + '/'),
  )
  const client = windows.find((c) => c.focused) ?? windows.find((c) => c.visibilityState === 'visible') ?? windows[0]
  if (!client) {
    await scope.clients.openWindow(url)
    return
  }
  try {
    await client.focus()
  } catch {
    // Focus needs the click's user activation; the message still goes.
  }
  client.postMessage({ type: NOTIFICATION_CLICK_MESSAGE, url })
}

/** message from a page: the unread count for the app badge. */
export function handleMessage(scope: WorkerScope, data: unknown): Promise<void> {
  const m = (data ?? {}) as { type?: unknown; count?: unknown }
  if (m.type !== BADGE_MESSAGE || typeof m.count !== 'number') return Promise.resolve()
  return appBadge(scope, m.count)
}

/** What the page does with a click's target URL. */
export type ClickNavigation = { kind: 'navigate'; to: string } | { kind: 'reload'; href: string } | { kind: 'stay' }

/**
 * Same path with only the query string different: a full reload, since the
 * screen on that path would not read a changed query again. Another path:
 * in-app navigation. The same URL: nothing. Another origin: never followed.
 */
export function clickNavigation(current: string, target: string): ClickNavigation {
  let from: URL
  let to: URL
  try {
    from = new URL(current)
    to = new URL(target, from)
  } catch {
    return { kind: 'stay' }
  }
  if (to.origin !== from.origin) return { kind: 'stay' }
  if (to.pathname === from.pathname) {
    if (to.search === from.search) return to.hash === from.hash ? { kind: 'stay' } : { kind: 'navigate', to: to.pathname + to.search + to.hash }
    return { kind: 'reload', href: to.href }
  }
  return { kind: 'navigate', to: to.pathname + to.search + to.hash }
}
