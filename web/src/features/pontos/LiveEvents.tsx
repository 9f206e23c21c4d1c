import { useAuth } from '@/features/auth/AuthProvider'
import { useLiveEvents } from './liveEvents'

/** Mounted once in the signed-in layout: the live event stream. */
export function LiveEvents() {
  const { isAuthenticated } = useAuth()
  useLiveEvents(isAuthenticated)
  return null
}
