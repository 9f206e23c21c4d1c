// Entry of /sw-push.js, imported by the generated /sw-unified.js. Built as a
// classic script (IIFE) with handlers.ts inlined.
import { handleMessage, handleNotificationClick, handlePush, type WorkerScope } from './handlers'

interface WaitableEvent extends Event {
  waitUntil: (p: Promise<unknown>) => void
}

const scope = self as unknown as WorkerScope & { addEventListener: typeof addEventListener }

scope.addEventListener('push', (event) => {
  const e = event as WaitableEvent & { data: { text: () => string } | null }
  e.waitUntil(handlePush(scope, e.data ? e.data.text() : null))
})

scope.addEventListener('notificationclick', (event) => {
  const e = event as WaitableEvent & { notification: Parameters<typeof handleNotificationClick>[1] }
  e.waitUntil(handleNotificationClick(scope, e.notification))
})

scope.addEventListener('message', (event) => {
  const e = event as unknown as WaitableEvent & { data: unknown }
  e.waitUntil(handleMessage(scope, e.data))
})
