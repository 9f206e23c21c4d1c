import { vi } from 'vitest'

export interface FakePushOptions {
  permission?: NotificationPermission
  /** The permission the browser's dialog answers. */
  answer?: NotificationPermission
  subscribed?: boolean
  secure?: boolean
}

/**
 * The browser side of Web Push for jsdom (it has none): Notification,
 * PushManager, a secure context and a service worker registration whose
 * pushManager hands out one subscription.
 */
export function fakeBrowserPush(o: FakePushOptions = {}) {
  const endpoint = 'https://push.example.test/send/device-1'
  let current: PushSubscription | null = null
  const makeSub = (key?: ArrayBuffer) =>
    ({
      endpoint,
      options: { applicationServerKey: key ?? null, userVisibleOnly: true },
      toJSON: () => ({ endpoint, keys: { p256dh: 'p256dh-key', auth: 'auth-secret' } }),
      unsubscribe: vi.fn(async () => {
        current = null
        return true
      }),
    }) as unknown as PushSubscription
  if (o.subscribed) current = makeSub()
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async (opts: PushSubscriptionOptionsInit) => {
      current = makeSub((opts.applicationServerKey as Uint8Array).slice().buffer)
      return current
    }),
  }
  const NotificationStub = {
    permission: o.permission ?? 'default',
    requestPermission: vi.fn(async () => {
      NotificationStub.permission = o.answer ?? 'granted'
      return NotificationStub.permission
    }),
  }
  vi.stubGlobal('Notification', NotificationStub)
  vi.stubGlobal('PushManager', class {})
  Object.defineProperty(window, 'isSecureContext', { configurable: true, value: o.secure ?? true })
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { ready: Promise.resolve({ pushManager }), controller: null, addEventListener: vi.fn(), removeEventListener: vi.fn() },
  })
  return { pushManager, Notification: NotificationStub, endpoint, subscription: () => current }
}

export function removeBrowserPush() {
  delete (navigator as { serviceWorker?: unknown }).serviceWorker
  delete (window as { isSecureContext?: unknown }).isSecureContext
  vi.unstubAllGlobals()
}
