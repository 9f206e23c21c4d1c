import { useEffect } from 'react'
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { refreshSession } from './api'

/** One event of GET /api/events (the `data:` line of a server-sent event). */
export interface LiveEvent<T = unknown> {
  id: number
  type: string
  data: T
}

/** What a feature does with one event type's payload: usually write or invalidate its own queries. */
export type LiveEventHandler = (data: unknown, queryClient: QueryClient) => void

/** Event type (e.g. 'points.balance') → its handler. */
export type LiveEventHandlers = Readonly<Record<string, LiveEventHandler>>

/** Wait before reopening a stream the server refused or dropped. */
export const RECONNECT_DELAY_MS = 2000

/**
 * Keeps the signed-in user's live stream (GET /api/events) open and hands each
 * event to the handler registered for its type, so the screens follow a change
 * as soon as any server instance commits it. The stream knows nothing of the
 * features: each one exports its handlers and the app shell combines them.
 *
 * Pass a constant map (built once at module level): a new map reopens the
 * stream. EventSource resends Last-Event-ID on its own reconnects; after a
 * refused connection (an expired access token) the session is refreshed and
 * the stream reopened from the last id seen, so no event is lost.
 */
export function useLiveEvents(enabled: boolean, handlers: LiveEventHandlers): void {
  const queryClient = useQueryClient()
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return
    let source: EventSource | null = null
    let lastId = ''
    let retry: ReturnType<typeof setTimeout> | undefined
    let stopped = false

    const open = () => {
      source = new EventSource(lastId ? `/api/events?last_event_id=${encodeURIComponent(lastId)}` : '/api/events')
      for (const [type, handle] of Object.entries(handlers)) {
        source.addEventListener(type, (e) => {
          const event = JSON.parse((e as MessageEvent<string>).data) as LiveEvent
          lastId = String(event.id)
          handle(event.data, queryClient)
        })
      }
      source.onerror = () => {
        if (source?.readyState !== EventSource.CLOSED || stopped) return
        source.close()
        retry = setTimeout(() => {
          void refreshSession().finally(() => {
            if (!stopped) open()
          })
        }, RECONNECT_DELAY_MS)
      }
    }
    open()
    return () => {
      stopped = true
      clearTimeout(retry)
      source?.close()
    }
  }, [enabled, handlers, queryClient])
}
