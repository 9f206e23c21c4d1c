/**
 * Push works only with a service worker, the Push API and the
 * Notification API in a secure context (https, or localhost / 127.0.0.1).
 */
export function isPushSupported(w: Window & typeof globalThis = window): boolean {
  return (
    !!w.isSecureContext &&
    'serviceWorker' in w.navigator &&
    'PushManager' in w &&
    'Notification' in w
  )
}

export type PushPermission = 'default' | 'granted' | 'denied'

export function currentPermission(w: Window & typeof globalThis = window): PushPermission {
  return 'Notification' in w ? (w.Notification.permission as PushPermission) : 'denied'
}

/** The web push applicationServerKey: the base64url public key as bytes. */
export function urlBase64ToUint8Array(base64url: string): Uint8Array<ArrayBuffer> {
  const padded = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4)
  const raw = atob(padded)
  const bytes = new Uint8Array(new ArrayBuffer(raw.length))
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i)
  return bytes
}
