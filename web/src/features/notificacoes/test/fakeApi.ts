import { vi } from 'vitest'
import type { Notification, NotificationPreferences } from '../api'

/** A notification as GET /api/notifications returns it. */
export function notification(id: string, overrides: Partial<Notification> = {}): Notification {
  return {
    id,
    type: 'like',
    title: `Título ${id}`,
    message: `Mensagem ${id}`,
    is_read: false,
    created_at: new Date(Date.now() - 5 * 60_000).toISOString(),
    related_user_id: 'u1',
    related_post_id: null,
    related_comment_id: null,
    link: null,
    data: {},
    group_count: 1,
    related_user: { id: 'u1', first_name: 'Ana', last_name: 'Souza', avatar_url: null },
    ...overrides,
  }
}

export const defaultPreferences: NotificationPreferences = {
  push_enabled: true,
  connections_enabled: true,
  comments_enabled: true,
  likes_enabled: true,
  challenges_enabled: true,
  courses_enabled: true,
  community_enabled: true,
  marketing_enabled: false,
  quiet_hours_start: '22:00',
  quiet_hours_end: '07:00',
  time_zone: 'America/Sao_Paulo',
}

export interface Call {
  method: string
  path: string
  body: unknown
}

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/**
 * The notification endpoints over an in-memory list, at the network layer
 * (fetch), so the hooks, apiFetch and the components run unchanged. `fail`
 * makes the matching requests fail (500 unless `failStatus`).
 */
export function fakeNotificationsApi(initial: Notification[], options: { fail?: (c: Call) => boolean; failStatus?: number; preferences?: NotificationPreferences } = {}) {
  let items = [...initial]
  let prefs = { ...(options.preferences ?? defaultPreferences) }
  const calls: Call[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost')
    const method = init?.method ?? 'GET'
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    const call = { method, path: url.pathname, body }
    calls.push(call)
    if (options.fail?.(call)) return json(options.failStatus ?? 500, { error: { code: 'EFAIL', message: 'falhou' } })
    const p = url.pathname
    if (method === 'GET' && p === '/api/notifications') {
      return json(200, { notifications: items, unread_count: items.filter((n) => !n.is_read).length })
    }
    if (method === 'POST' && p === '/api/notifications/read-all') {
      items = items.map((n) => ({ ...n, is_read: true }))
      return json(204)
    }
    let m = p.match(/^\/api\/notifications\/([^/]+)\/read$/)
    if (method === 'POST' && m) {
      items = items.map((n) => (n.id === m![1] ? { ...n, is_read: true } : n))
      return json(204)
    }
    if (method === 'GET' && p === '/api/notifications/preferences') return json(200, prefs)
    if (method === 'PUT' && p === '/api/notifications/preferences') {
      prefs = body as NotificationPreferences
      return json(200, prefs)
    }
    m = p.match(/^\/api\/notifications\/([^/]+)$/)
    if (method === 'DELETE' && m) {
      items = items.filter((n) => n.id !== m![1])
      return json(204)
    }
    if (method === 'DELETE' && p === '/api/notifications') {
      items = []
      return json(204)
    }
    if (method === 'GET' && p === '/api/push/vapid-key') return json(200, { public_key: 'AQID' })
    if (method === 'POST' && (p === '/api/push/subscriptions' || p === '/api/push/subscriptions/unsubscribe')) return json(204)
    if (method === 'POST' && /^\/api\/connections\/[^/]+\/(accept|reject)$/.test(p)) return json(204)
    return json(404, { error: { code: 'ENOTFOUND', message: 'não encontrado' } })
  })
  vi.stubGlobal('fetch', fetchMock)
  return { calls, fetchMock, items: () => items, preferences: () => prefs }
}
