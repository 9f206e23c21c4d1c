import { useAuth } from '@/lib/session/AuthProvider'
import { notificationLiveEvents } from '@/features/notificacoes/liveEvents'
import { pointsLiveEvents } from '@/features/pontos/liveEvents'
import { subscriptionLiveEvents } from '@/features/subscription/liveEvents'
import { useLiveEvents, type LiveEventHandlers } from '@/lib/liveEvents'

// Built once: a new map would reopen the stream.
const handlers: LiveEventHandlers = {
  ...pointsLiveEvents,
  ...subscriptionLiveEvents,
  ...notificationLiveEvents,
}

/** Mounted once in the signed-in layout: the live event stream, with each feature's reactions. */
export function LiveEvents() {
  const { isAuthenticated } = useAuth()
  useLiveEvents(isAuthenticated, handlers)
  return null
}
