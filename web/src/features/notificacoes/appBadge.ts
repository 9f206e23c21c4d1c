import { BADGE_MESSAGE } from './sw/handlers'

interface BadgeNavigator {
  setAppBadge?: (count?: number) => Promise<void>
  clearAppBadge?: () => Promise<void>
  serviceWorker?: { controller: { postMessage: (m: unknown) => void } | null }
}

/**
 * Shows the unread count on the installed app's icon (Badging API) where the
 * browser has it, and posts it to the service worker, which keeps the badge
 * when no page is open. Unsupported browsers simply show no badge.
 */
export function syncAppBadge(count: number, nav: BadgeNavigator = navigator as BadgeNavigator): void {
  try {
    if (count > 0) void nav.setAppBadge?.(count)?.catch(() => {})
    else void nav.clearAppBadge?.()?.catch(() => {})
  } catch {
    // The Badging API throws outside an installed app on some browsers.
  }
  nav.serviceWorker?.controller?.postMessage({ type: BADGE_MESSAGE, count })
}
