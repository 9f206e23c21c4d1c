import { describe, expect, it, vi } from 'vitest'
import {
  FOREGROUND_CLOSE_MS,
  NOTIFICATION_CLICK_MESSAGE,
  clickNavigation,
  handleMessage,
  handleNotificationClick,
  handlePush,
  parsePushPayload,
  targetUrl,
  type WorkerScope,
} from './handlers'

const ORIGIN = 'https://app.vetclube.test'

function client(url: string, opts: { focused?: boolean; visibilityState?: string } = {}) {
  return { url, focused: opts.focused ?? false, visibilityState: opts.visibilityState ?? 'hidden', focus: vi.fn(async () => {}), postMessage: vi.fn() }
}

function scope(windows: ReturnType<typeof client>[] = []) {
  const shown: { title: string; options: NotificationOptions; close: ReturnType<typeof vi.fn<() => void>> }[] = []
  const s = {
    location: { origin: ORIGIN },
    registration: {
      showNotification: vi.fn(async (title: string, options: NotificationOptions) => void shown.push({ title, options, close: vi.fn<() => void>() })),
      getNotifications: vi.fn(async (filter?: { tag?: string }) =>
        shown.filter((n) => !filter?.tag || n.options.tag === filter.tag).map((n) => ({ data: n.options.data, tag: n.options.tag, close: n.close })),
      ),
    },
    clients: { matchAll: vi.fn(async () => windows), openWindow: vi.fn(async () => null) },
    navigator: { setAppBadge: vi.fn(async () => {}), clearAppBadge: vi.fn(async () => {}) },
    sleep: vi.fn(async () => {}),
  } satisfies WorkerScope
  return { s, shown }
}

describe('clickNavigation', () => {
  const here = `${ORIGIN}/community?post=1`
  it('another path: in-app navigation', () => {
    expect(clickNavigation(here, `${ORIGIN}/desafios`)).toEqual({ kind: 'navigate', to: '/desafios' })
    expect(clickNavigation(here, '/connections?tab=pending')).toEqual({ kind: 'navigate', to: '/connections?tab=pending' })
  })
  it('same path, only the query differs: a full reload', () => {
    expect(clickNavigation(here, `${ORIGIN}/community?post=2`)).toEqual({ kind: 'reload', href: `${ORIGIN}/community?post=2` })
    expect(clickNavigation(`${ORIGIN}/community`, '/community?post=2')).toEqual({ kind: 'reload', href: `${ORIGIN}/community?post=2` })
  })
  it('the same URL stays; another origin is never followed', () => {
    expect(clickNavigation(here, here)).toEqual({ kind: 'stay' })
    expect(clickNavigation(here, 'https://evil.example/community?post=1')).toEqual({ kind: 'stay' })
  })
})

describe('parsePushPayload and targetUrl', () => {
  it('reads the server payload with defaults', () => {
    expect(parsePushPayload(JSON.stringify({ title: 'Nova conexão', body: 'Ana quer se conectar', url: '/connections', tag: 't1', unread_count: 3 }), 7)).toEqual({
      title: 'Nova conexão',
      body: 'Ana quer se conectar',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      url: '/connections',
      tag: 't1',
      unreadCount: 3,
    })
    expect(parsePushPayload(JSON.stringify({ message: 'Oi', data: { url: '/desafios' } }), 7)).toMatchObject({ title: 'VetClube', body: 'Oi', url: '/desafios', tag: 'vetclube-7' })
    expect(parsePushPayload('texto simples', 7)).toMatchObject({ title: 'VetClube', body: 'texto simples', url: '/' })
    expect(parsePushPayload(null, 7)).toMatchObject({ title: 'VetClube', body: '' })
  })
  it('keeps the target on our origin', () => {
    expect(targetUrl('/desafios', ORIGIN)).toBe(`${ORIGIN}/desafios`)
    expect(targetUrl('https://evil.example/x', ORIGIN)).toBe(`${ORIGIN}/`)
    expect(targetUrl(undefined, ORIGIN)).toBe(`${ORIGIN}/`)
  })
})

describe('handlePush', () => {
  it('shows the notification with the target URL in its data; in the background it stays', async () => {
    const { s, shown } = scope([client(`${ORIGIN}/`, { visibilityState: 'hidden' })])
    await handlePush(s, JSON.stringify({ title: 'T', body: 'B', url: '/desafios', tag: 'x', unread_count: 4 }))
    expect(shown).toHaveLength(1)
    expect(shown[0]!.title).toBe('T')
    expect(shown[0]!.options).toMatchObject({ body: 'B', tag: 'x', icon: '/icons/icon-192.png', badge: '/icons/icon-192.png', data: { url: '/desafios' } })
    expect(s.navigator.setAppBadge).toHaveBeenCalledWith(4)
    expect(s.sleep).not.toHaveBeenCalled()
    expect(shown[0]!.close).not.toHaveBeenCalled()
  })
  it('with the app in front, closes it after 5 s', async () => {
    const { s, shown } = scope([client(`${ORIGIN}/`, { focused: true, visibilityState: 'visible' })])
    await handlePush(s, JSON.stringify({ title: 'T', tag: 'y' }))
    expect(s.sleep).toHaveBeenCalledWith(FOREGROUND_CLOSE_MS)
    expect(shown[0]!.close).toHaveBeenCalled()
  })
})

describe('handleNotificationClick', () => {
  it('focuses an open window and hands it the target', async () => {
    const background = client(`${ORIGIN}/pontos`)
    const front = client(`${ORIGIN}/community`, { focused: true, visibilityState: 'visible' })
    const { s } = scope([background, front])
    const close = vi.fn()
    await handleNotificationClick(s, { data: { url: '/community?post=9' }, close })
    expect(close).toHaveBeenCalled()
    expect(front.focus).toHaveBeenCalled()
    expect(front.postMessage).toHaveBeenCalledWith({ type: NOTIFICATION_CLICK_MESSAGE, url: `${ORIGIN}/community?post=9` })
    expect(background.postMessage).not.toHaveBeenCalled()
    expect(s.clients.openWindow).not.toHaveBeenCalled()
  })
  it('still tells the window when focus is refused', async () => {
    const w = client(`${ORIGIN}/`)
    w.focus.mockRejectedValue(new DOMException('Not allowed to focus a window.', 'InvalidAccessError'))
    const { s } = scope([w])
    await handleNotificationClick(s, { data: { url: '/desafios' }, close: vi.fn() })
    expect(w.postMessage).toHaveBeenCalledWith({ type: NOTIFICATION_CLICK_MESSAGE, url: `${ORIGIN}/desafios` })
  })
  it('opens a window on the target when none is open', async () => {
    const { s } = scope([])
    await handleNotificationClick(s, { data: { url: '/connections' }, close: vi.fn() })
    expect(s.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/connections`)
  })
})

describe('handleMessage', () => {
  it('sets or clears the app badge from the page count', async () => {
    const { s } = scope()
    await handleMessage(s, { type: 'BADGE_UPDATE', count: 12 })
    expect(s.navigator.setAppBadge).toHaveBeenCalledWith(12)
    await handleMessage(s, { type: 'BADGE_UPDATE', count: 0 })
    expect(s.navigator.clearAppBadge).toHaveBeenCalled()
    await handleMessage(s, { type: 'OTHER' })
    expect(s.navigator.setAppBadge).toHaveBeenCalledTimes(1)
  })
})
