import { useSyncExternalStore } from 'react'
import { ApiError, apiFetch } from '@/lib/api'
import { PUSH_MESSAGES, PushError, enableFailedWith } from './messages'
import { forgetPublicKey, getPublicKey } from './publicKey'
import { currentPermission, isPushSupported, urlBase64ToUint8Array, type PushPermission } from './support'

/** What the settings, the prompt and /push-test show. */
export type PushStatus = 'unsupported' | 'blocked' | 'active' | 'inactive'

export interface PushState {
  supported: boolean
  permission: PushPermission
  /** This browser's subscription endpoint, when subscribed. */
  endpoint: string | null
  /** False until the browser's subscription has been read once. */
  checked: boolean
}

export function pushStatus(s: PushState): PushStatus {
  if (!s.supported) return 'unsupported'
  if (s.permission === 'denied') return 'blocked'
  return s.permission === 'granted' && s.endpoint ? 'active' : 'inactive'
}

/** How long to wait for the service worker before calling it broken (it never comes in `vite dev`). */
export const SERVICE_WORKER_TIMEOUT_MS = 10_000

// The browser's push state is one per tab: a module store every component reads.
let state: PushState = { supported: false, permission: 'default', endpoint: null, checked: false }
const listeners = new Set<() => void>()

function setState(next: Partial<PushState>) {
  state = { ...state, ...next }
  for (const l of listeners) l()
}

function subscribeStore(l: () => void) {
  listeners.add(l)
  return () => listeners.delete(l)
}

export function getPushState(): PushState {
  return state
}

export function usePushState(): PushState {
  return useSyncExternalStore(subscribeStore, getPushState, getPushState)
}

async function registration(): Promise<ServiceWorkerRegistration> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PushError(PUSH_MESSAGES.serviceWorker)), SERVICE_WORKER_TIMEOUT_MS)
  })
  try {
    return await Promise.race([navigator.serviceWorker.ready, timeout])
  } finally {
    clearTimeout(timer)
  }
}

function subscriptionBody(sub: PushSubscription) {
  const json = sub.toJSON()
  return {
    subscription: { endpoint: sub.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } },
    userAgent: navigator.userAgent,
  }
}

/**
 * Reads this browser's subscription. When it exists but the server no longer
 * holds it active (it was pruned, or registration failed), it is registered
 * again; errors here are ignored (subscription errors are silent).
 */
export async function refreshPushState(options: { verifyWithServer?: boolean } = {}): Promise<PushState> {
  const supported = isPushSupported()
  if (!supported) {
    setState({ supported, permission: currentPermission(), endpoint: null, checked: true })
    return state
  }
  const permission = currentPermission()
  let endpoint: string | null = null
  try {
    const reg = await registration()
    const sub = await reg.pushManager.getSubscription()
    endpoint = permission === 'granted' && sub ? sub.endpoint : null
    if (sub && endpoint && options.verifyWithServer) {
      const { subscriptions } = await apiFetch<{ subscriptions: { endpoint: string; is_active: boolean }[] }>('/api/push/subscriptions')
      if (!subscriptions.some((s) => s.endpoint === sub.endpoint && s.is_active)) {
        await apiFetch<void>('/api/push/subscriptions', { method: 'POST', body: subscriptionBody(sub) })
      }
    }
  } catch {
    // Silent: the state shows what the browser said.
  }
  setState({ supported, permission, endpoint, checked: true })
  return state
}

function subscribeError(err: unknown): PushError {
  if (err instanceof PushError) return err
  if (err instanceof ApiError) return new PushError(err.status === 0 ? PUSH_MESSAGES.network : enableFailedWith(err.message))
  if (err instanceof DOMException) {
    if (err.name === 'NotAllowedError') return new PushError(PUSH_MESSAGES.denied)
    // The push service refused the applicationServerKey.
    if (err.name === 'InvalidAccessError' || err.name === 'InvalidStateError') return new PushError(PUSH_MESSAGES.vapidKey)
    if (err.name === 'AbortError' || err.name === 'NetworkError') return new PushError(PUSH_MESSAGES.network)
  }
  if (err instanceof Error && err.message) return new PushError(enableFailedWith(err.message))
  return new PushError(PUSH_MESSAGES.enableFailed)
}

function sameKey(sub: PushSubscription, key: Uint8Array): boolean {
  const current = sub.options?.applicationServerKey
  if (!current) return true
  const bytes = new Uint8Array(current)
  return bytes.length === key.length && bytes.every((b, i) => b === key[i])
}

/**
 * The subscribe flow, native Web Push only: permission, the server's
 * public key, the browser subscription (userVisibleOnly), registration with
 * the server, subscribed. Throws a PushError with the message to show.
 */
export async function subscribePush(): Promise<PushState> {
  if (!isPushSupported()) throw new PushError(PUSH_MESSAGES.unsupported)
  try {
    let permission = currentPermission()
    if (permission === 'default') permission = (await Notification.requestPermission()) as PushPermission
    setState({ permission })
    if (permission !== 'granted') throw new PushError(PUSH_MESSAGES.denied)

    const key = urlBase64ToUint8Array(await getPublicKey())
    const reg = await registration()
    let sub = await reg.pushManager.getSubscription()
    if (sub && !sameKey(sub, key)) {
      // Made with an older server key: the push service would refuse our pushes.
      await sub.unsubscribe()
      sub = null
    }
    try {
      sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })
    } catch (err) {
      if (err instanceof DOMException && err.name === 'InvalidAccessError') forgetPublicKey()
      throw err
    }
    try {
      await apiFetch<void>('/api/push/subscriptions', { method: 'POST', body: subscriptionBody(sub) })
    } catch (err) {
      // 409: this endpoint is another account's (a shared browser) and never
      // changes owner; a fresh browser subscription gives a new endpoint.
      if (!(err instanceof ApiError && err.status === 409)) throw err
      await sub.unsubscribe()
      sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key })
      await apiFetch<void>('/api/push/subscriptions', { method: 'POST', body: subscriptionBody(sub) })
    }
    setState({ endpoint: sub.endpoint, checked: true })
    return state
  } catch (err) {
    throw subscribeError(err)
  }
}

/** Unsubscribing: the browser subscription is cancelled, the server told, unsubscribed. */
export async function unsubscribePush(): Promise<PushState> {
  try {
    const reg = await registration()
    const sub = await reg.pushManager.getSubscription()
    if (sub) {
      const endpoint = sub.endpoint
      await sub.unsubscribe()
      // The browser's side is gone whatever the server answers.
      setState({ endpoint: null })
      await apiFetch<void>('/api/push/subscriptions/unsubscribe', { method: 'POST', body: { subscription: { endpoint } } })
    }
    setState({ endpoint: null })
    return state
  } catch {
    throw new PushError(PUSH_MESSAGES.disableFailed)
  }
}
