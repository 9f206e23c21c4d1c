import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it, vi } from 'vitest'
import { notificationsKey, type NotificationList } from './api'
import { notificationLiveEvents } from './liveEvents'
import { notification } from './test/fakeApi'

function clientWith(list: NotificationList) {
  const client = new QueryClient()
  client.setQueryData(notificationsKey, list)
  return client
}

const list = (): NotificationList => ({
  notifications: [notification('a'), notification('b', { is_read: true }), notification('c')],
  unread_count: 2,
})

describe('notification live events', () => {
  it('created reloads the list', () => {
    const client = clientWith(list())
    const invalidate = vi.spyOn(client, 'invalidateQueries')
    notificationLiveEvents['notification.created']!(notification('d'), client)
    expect(invalidate).toHaveBeenCalledWith({ queryKey: notificationsKey })
  })

  it('updated syncs the read flag and the count, one or all', () => {
    const client = clientWith(list())
    notificationLiveEvents['notification.updated']!({ id: 'a', is_read: true }, client)
    let data = client.getQueryData<NotificationList>(notificationsKey)!
    expect(data.unread_count).toBe(1)
    expect(data.notifications.find((n) => n.id === 'a')!.is_read).toBe(true)
    // Repeated (another tab already applied it): no double count.
    notificationLiveEvents['notification.updated']!({ id: 'a', is_read: true }, client)
    expect(client.getQueryData<NotificationList>(notificationsKey)!.unread_count).toBe(1)
    notificationLiveEvents['notification.updated']!({ all_read: true }, client)
    data = client.getQueryData<NotificationList>(notificationsKey)!
    expect(data.unread_count).toBe(0)
    expect(data.notifications.every((n) => n.is_read)).toBe(true)
  })

  it('deleted removes the item (lowering the count when unread), or all', () => {
    const client = clientWith(list())
    notificationLiveEvents['notification.deleted']!({ id: 'b' }, client)
    expect(client.getQueryData<NotificationList>(notificationsKey)).toMatchObject({ unread_count: 2 })
    notificationLiveEvents['notification.deleted']!({ id: 'c' }, client)
    const data = client.getQueryData<NotificationList>(notificationsKey)!
    expect(data.unread_count).toBe(1)
    expect(data.notifications.map((n) => n.id)).toEqual(['a'])
    notificationLiveEvents['notification.deleted']!({ all: true }, client)
    expect(client.getQueryData(notificationsKey)).toEqual({ notifications: [], unread_count: 0 })
  })
})
