import { describe, expect, it, vi } from 'vitest'
import { syncAppBadge } from './appBadge'

describe('syncAppBadge', () => {
  it('sets the Badging API count and posts it to the service worker', () => {
    const nav = { setAppBadge: vi.fn(async () => {}), clearAppBadge: vi.fn(async () => {}), serviceWorker: { controller: { postMessage: vi.fn() } } }
    syncAppBadge(12, nav)
    expect(nav.setAppBadge).toHaveBeenCalledWith(12)
    expect(nav.serviceWorker.controller.postMessage).toHaveBeenCalledWith({ type: 'BADGE_UPDATE', count: 12 })
    syncAppBadge(0, nav)
    expect(nav.clearAppBadge).toHaveBeenCalled()
  })
  it('does nothing where the Badging API and the worker are missing', () => {
    expect(() => syncAppBadge(3, {})).not.toThrow()
    expect(() => syncAppBadge(3, { serviceWorker: { controller: null } })).not.toThrow()
  })
})
