import { useEffect } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { refreshSession } from '@/lib/api'
import { queryKeys } from '@/lib/queryKeys'
import { historyKey } from './api'

interface StreamEvent<T> {
  id: number
  type: string
  data: T
}

/**
 * Keeps the signed-in user's live stream (GET /api/events) open and applies
 * its events to the query cache: the VetCoins badge and /pontos update as soon
 * as any server instance commits a change. EventSource resends Last-Event-ID
 * on its own reconnects; after a refused connection (an expired access token)
 * the session is refreshed and the stream reopened from the last id seen.
 */
export function useLiveEvents(enabled: boolean): void {
  const queryClient = useQueryClient()
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return
    let source: EventSource | null = null
    let lastId = ''
    let retry: ReturnType<typeof setTimeout> | undefined
    let stopped = false

    const open = () => {
      source = new EventSource(lastId ? `/api/events?last_event_id=${encodeURIComponent(lastId)}` : '/api/events')
      source.addEventListener('points.balance', (e) => {
        const ev = JSON.parse((e as MessageEvent).data) as StreamEvent<{ balance: { total_points: number } }>
        lastId = String(ev.id)
        queryClient.setQueryData(queryKeys.pointsBalance, ev.data.balance)
        void queryClient.invalidateQueries({ queryKey: historyKey })
      })
      source.addEventListener('subscription.changed', (e) => {
        lastId = String((JSON.parse((e as MessageEvent).data) as StreamEvent<unknown>).id)
        void queryClient.invalidateQueries({ queryKey: queryKeys.subscription })
      })
      source.addEventListener('notification.created', (e) => {
        lastId = String((JSON.parse((e as MessageEvent).data) as StreamEvent<unknown>).id)
        void queryClient.invalidateQueries({ queryKey: ['notifications'] })
      })
      source.onerror = () => {
        if (source?.readyState !== EventSource.CLOSED || stopped) return
        source.close()
        retry = setTimeout(() => {
          void refreshSession().finally(() => {
            if (!stopped) open()
          })
        }, 2000)
      }
    }
    open()
    return () => {
      stopped = true
      clearTimeout(retry)
      source?.close()
    }
  }, [enabled, queryClient])
}
