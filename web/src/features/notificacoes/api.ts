import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { toast } from '@/components/ui/toast'
import { ApiError, apiFetch } from '@/lib/api'

/** The user who acted (liked, commented, asked to connect), as the API enriches it. */
export interface RelatedUser {
  id: string
  first_name: string | null
  last_name: string | null
  avatar_url: string | null
}

/** One row of GET /api/notifications. */
export interface Notification {
  id: string
  type: string
  title: string
  message: string
  is_read: boolean
  created_at: string
  related_user_id: string | null
  related_post_id: string | null
  related_comment_id: string | null
  link: string | null
  data: Record<string, string> | null
  group_count?: number
  related_user: RelatedUser | null
}

export interface NotificationList {
  notifications: Notification[]
  unread_count: number
}

/** GET/PUT /api/notifications/preferences. */
export interface NotificationPreferences {
  push_enabled: boolean
  connections_enabled: boolean
  comments_enabled: boolean
  likes_enabled: boolean
  challenges_enabled: boolean
  courses_enabled: boolean
  community_enabled: boolean
  marketing_enabled: boolean
  quiet_hours_start: string
  quiet_hours_end: string
  time_zone: string
}

export const NOTIFICATIONS_LIMIT = 50
export const notificationsKey = ['notifications', 'list'] as const
// Not under ['notifications']: a new notification reloads the list, never the preferences.
export const preferencesKey = ['notification-preferences'] as const

const EMPTY: NotificationList = { notifications: [], unread_count: 0 }

/**
 * The only reader of notificationsKey. A failed load shows an empty list
 * (notification failures are silent), never an error.
 */
export function useNotifications(enabled = true) {
  return useQuery({
    queryKey: notificationsKey,
    enabled,
    // Read on every page load: the live stream keeps the list current only
    // while it is open, and a list restored from the persisted cache may
    // predate changes made meanwhile (another tab's 'Limpar todas').
    refetchOnMount: 'always',
    queryFn: async ({ signal }) => {
      try {
        return await apiFetch<NotificationList>(`/api/notifications?limit=${NOTIFICATIONS_LIMIT}`, { signal })
      } catch (err) {
        if (signal.aborted) throw err
        return EMPTY
      }
    },
  })
}

/** The count the badge shows: the unread items (the server's count, kept in step by every local change). */
export function unreadCount(list: NotificationList | undefined): number {
  return list?.unread_count ?? 0
}

// Local edits of the cached list: applied at once, so the badge and the list
// answer the click; the server's answer (or the live event) confirms them.

export function markReadInList(list: NotificationList, id: string): NotificationList {
  const target = list.notifications.find((n) => n.id === id)
  if (!target || target.is_read) return list
  return {
    notifications: list.notifications.map((n) => (n.id === id ? { ...n, is_read: true } : n)),
    unread_count: Math.max(0, list.unread_count - 1),
  }
}

export function markAllReadInList(list: NotificationList): NotificationList {
  return { notifications: list.notifications.map((n) => (n.is_read ? n : { ...n, is_read: true })), unread_count: 0 }
}

export function removeFromList(list: NotificationList, id: string): NotificationList {
  const target = list.notifications.find((n) => n.id === id)
  if (!target) return list
  return {
    notifications: list.notifications.filter((n) => n.id !== id),
    unread_count: target.is_read ? list.unread_count : Math.max(0, list.unread_count - 1),
  }
}

export function updateList(queryClient: QueryClient, change: (list: NotificationList) => NotificationList): void {
  queryClient.setQueryData<NotificationList>(notificationsKey, (old) => (old ? change(old) : old))
}

/**
 * A notification action: the cache changes at once; a failure is silent
 * and the list is read again so it shows the server's truth.
 */
function useNotificationAction<V>(request: (v: V) => Promise<unknown>, change: (list: NotificationList, v: V) => NotificationList) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: request,
    onMutate: (v: V) => updateList(queryClient, (list) => change(list, v)),
    onError: () => void queryClient.invalidateQueries({ queryKey: notificationsKey }),
  })
}

export function useMarkRead() {
  return useNotificationAction(
    (id: string) => apiFetch<void>(`/api/notifications/${encodeURIComponent(id)}/read`, { method: 'POST' }),
    markReadInList,
  )
}

export function useMarkAllRead() {
  return useNotificationAction(() => apiFetch<void>('/api/notifications/read-all', { method: 'POST' }), markAllReadInList)
}

export function useDeleteNotification() {
  return useNotificationAction(
    (id: string) => apiFetch<void>(`/api/notifications/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    removeFromList,
  )
}

export function useClearNotifications() {
  return useNotificationAction(() => apiFetch<void>('/api/notifications', { method: 'DELETE' }), () => EMPTY)
}

export type ConnectionAnswer = 'accept' | 'reject'

/**
 * Aceitar / Recusar on a connection notification: answers the pending request
 * (data.connection_id) and marks the notification read, and says so as the
 * connections page does ('Conexão aceita!', 'Conexão rejeitada') — here, not
 * in the item, which a refused request's notice leaves before the answer.
 * Silent on failure, as every notification action; the list is read again.
 */
export function useAnswerConnection() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ notification, answer }: { notification: Notification; answer: ConnectionAnswer }) => {
      const connectionId = notification.data?.connection_id
      if (connectionId) await apiFetch<void>(`/api/connections/${encodeURIComponent(connectionId)}/${answer}`, { method: 'POST' })
      if (notification.is_read) return
      try {
        await apiFetch<void>(`/api/notifications/${encodeURIComponent(notification.id)}/read`, { method: 'POST' })
      } catch (err) {
        // A refused request takes its notice back: nothing is left to mark read.
        if (!(connectionId && err instanceof ApiError && err.status === 404)) throw err
      }
    },
    onSuccess: (_r, { notification, answer }) => {
      toast.success(answer === 'accept' ? 'Conexão aceita!' : 'Conexão rejeitada')
      updateList(queryClient, (list) => markReadInList(list, notification.id))
      // The connections screens (another feature) read ['connections', ...].
      void queryClient.invalidateQueries({ queryKey: ['connections'] })
    },
    onError: () => void queryClient.invalidateQueries({ queryKey: notificationsKey }),
  })
}

/** The only reader of preferencesKey. */
export function usePreferences(enabled = true) {
  return useQuery({
    queryKey: preferencesKey,
    enabled,
    queryFn: ({ signal }) => apiFetch<NotificationPreferences>('/api/notifications/preferences', { signal }),
  })
}

export const PREFERENCES_SAVED = 'Preferências atualizadas com sucesso'
export const PREFERENCES_FAILED = 'Erro ao atualizar preferências'

/**
 * Saves a change at once (PUT of the whole preferences): the switch moves
 * before the answer; on failure it moves back and the error toast shows.
 * `successMessage` replaces the default toast (the push switch has its own).
 */
export function useUpdatePreferences(notify: { success: (m: string) => void; error: (m: string) => void }) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ next }: { next: NotificationPreferences; successMessage?: string }) =>
      apiFetch<NotificationPreferences | undefined>('/api/notifications/preferences', { method: 'PUT', body: next }),
    onMutate: async ({ next }) => {
      await queryClient.cancelQueries({ queryKey: preferencesKey })
      const previous = queryClient.getQueryData<NotificationPreferences>(preferencesKey)
      queryClient.setQueryData(preferencesKey, next)
      return { previous }
    },
    onError: (_err, _vars, context) => {
      if (context?.previous) queryClient.setQueryData(preferencesKey, context.previous)
      notify.error(PREFERENCES_FAILED)
    },
    onSuccess: (saved, { successMessage }) => {
      if (saved && typeof saved === 'object') queryClient.setQueryData(preferencesKey, saved)
      notify.success(successMessage ?? PREFERENCES_SAVED)
    },
  })
}

/** One device of GET /api/push/subscriptions. */
export interface PushSubscriptionRow {
  id: string
  endpoint: string
  is_active: boolean
  user_agent: string | null
  created_at: string
}

/** One attempt of GET /api/push/deliveries. */
export interface PushDelivery {
  id: number
  endpoint: string
  /** The notification kind and title the push carried. */
  kind?: string
  title?: string
  status: string
  attempts: number
  last_error: string | null
  created_at: string
  delivered_at: string | null
}

export const pushSubscriptionsKey = ['push', 'subscriptions'] as const
export const pushDeliveriesKey = ['push', 'deliveries'] as const

/** The user's devices, as the server holds them (/push-test). */
export function usePushSubscriptions() {
  return useQuery({
    queryKey: pushSubscriptionsKey,
    queryFn: ({ signal }) => apiFetch<{ subscriptions: PushSubscriptionRow[] }>('/api/push/subscriptions', { signal }).then((r) => r.subscriptions),
    staleTime: 0,
  })
}

// Every status but 'pending' is final (migrations/00072_push.sql).
const SETTLED = new Set(['sent', 'failed', 'gone', 'superseded'])

/** Recent delivery attempts (/push-test); read again every 2 s while one is still on its way. */
export function usePushDeliveries() {
  return useQuery({
    queryKey: pushDeliveriesKey,
    queryFn: ({ signal }) => apiFetch<{ deliveries: PushDelivery[] }>('/api/push/deliveries', { signal }).then((r) => r.deliveries),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.some((d) => !SETTLED.has(d.status)) ? 2000 : false),
  })
}

/** POST /api/push/test: a test push to every active device of the user (202), or 409 when there is none. */
export function useSendTestPush() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => apiFetch<{ sent: number }>('/api/push/test', { method: 'POST' }),
    // A 409 (no device) or a refused request is final: never repeated.
    retry: false,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: pushDeliveriesKey }),
  })
}
