import type { LiveEventHandlers } from '@/lib/liveEvents'
import { markAllReadInList, notificationsKey, removeFromList, updateList, type NotificationList } from './api'

interface UpdatedEvent {
  id?: string
  is_read?: boolean
  all_read?: boolean
}

interface DeletedEvent {
  id?: string
  all?: boolean
}

/** Sets one item's read flag, keeping the unread count in step. */
export function setReadFlag(list: NotificationList, id: string, isRead: boolean): NotificationList {
  const target = list.notifications.find((n) => n.id === id)
  if (!target || target.is_read === isRead) return list
  return {
    notifications: list.notifications.map((n) => (n.id === id ? { ...n, is_read: isRead } : n)),
    unread_count: Math.max(0, list.unread_count + (isRead ? -1 : 1)),
  }
}

/**
 * A new notification reloads the list (it may be folded into a
 * group, so the server's list is the truth); an update syncs the read flag; a
 * deletion removes the item. Changes made in another tab or device arrive here too.
 */
export const notificationLiveEvents: LiveEventHandlers = {
  'notification.created': (_data, queryClient) => void queryClient.invalidateQueries({ queryKey: notificationsKey }),
  'notification.updated': (data, queryClient) => {
    const e = (data ?? {}) as UpdatedEvent
    if (e.all_read) updateList(queryClient, markAllReadInList)
    else if (e.id) updateList(queryClient, (list) => setReadFlag(list, e.id!, e.is_read ?? true))
  },
  'notification.deleted': (data, queryClient) => {
    const e = (data ?? {}) as DeletedEvent
    if (e.all) updateList(queryClient, () => ({ notifications: [], unread_count: 0 }))
    else if (e.id) updateList(queryClient, (list) => removeFromList(list, e.id!))
  },
}
