import { readCookie, writeCookie } from '@/lib/cookies'

export const SIDEBAR_COOKIE = 'sidebar_state'
export const SIDEBAR_COOKIE_MAX_AGE = 60 * 60 * 24 * 7
/** Below this width the sidebar becomes a drawer and the bottom navigation shows. */
export const MOBILE_BREAKPOINT = 1024

/** Desktop open/collapsed state from the cookie; open when never set. */
export function readSidebarOpen(): boolean {
  return readCookie(SIDEBAR_COOKIE) !== 'false'
}

export function saveSidebarOpen(open: boolean): void {
  writeCookie(SIDEBAR_COOKIE, String(open), SIDEBAR_COOKIE_MAX_AGE)
}

/** Ctrl+B on Windows/Linux, Cmd+B on macOS. */
export function isSidebarShortcut(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey' | 'shiftKey'>): boolean {
  return e.key.toLowerCase() === 'b' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey
}
