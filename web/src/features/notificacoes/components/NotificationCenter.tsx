import { useEffect } from 'react'
import { useNavigate } from 'react-router'
import { refreshPushState } from '../push/pushState'
import { NOTIFICATION_CLICK_MESSAGE, clickNavigation } from '../sw/handlers'
import { NotificationBell } from './NotificationBell'
import { PushPermissionPrompt } from './PushPermissionPrompt'

/** This browser's subscription is checked 1 s after the app loads. */
export const VERIFY_DELAY_MS = 1000

/**
 * Follows a notification click the service worker hands to this window:
 * in-app navigation, or a full reload when only the query string changes.
 */
function useNotificationClicks() {
  const navigate = useNavigate()
  useEffect(() => {
    const sw = navigator.serviceWorker
    if (!sw) return
    const onMessage = (e: MessageEvent) => {
      const m = e.data as { type?: unknown; url?: unknown } | null
      if (m?.type !== NOTIFICATION_CLICK_MESSAGE || typeof m.url !== 'string') return
      const next = clickNavigation(window.location.href, m.url)
      if (next.kind === 'navigate') navigate(next.to)
      else if (next.kind === 'reload') window.location.assign(next.href)
    }
    sw.addEventListener('message', onMessage)
    return () => sw.removeEventListener('message', onMessage)
  }, [navigate])
}

/** The signed-in user's notifications in the top bar: the bell, the push prompt, the worker's clicks. */
export function NotificationCenter() {
  useNotificationClicks()
  useEffect(() => {
    const timer = setTimeout(() => void refreshPushState({ verifyWithServer: true }), VERIFY_DELAY_MS)
    return () => clearTimeout(timer)
  }, [])
  return (
    <>
      <NotificationBell />
      <PushPermissionPrompt />
    </>
  )
}
