import { useEffect, useState } from 'react'
import { Navigate, Outlet, useLocation } from 'react-router'
import { FullScreenLoader } from '@/components/ui/Spinner'
import { useAuth } from '@/lib/session/AuthProvider'
import { loginPathFor } from '@/features/auth/returnPath'
import { isStandalone } from '@/features/pwa/standalone'

/** Extra wait in the installed app so a cold start does not flash the login screen. */
export const STANDALONE_AUTH_DELAY_MS = 200

/**
 * Guards signed-in routes: a full-screen loader while the session check runs,
 * then visitors go to /landing (from /) or /login with the path they wanted.
 */
export function RequireAuth() {
  const { loading, isAuthenticated, signedOut } = useAuth()
  const location = useLocation()
  const [delayDone, setDelayDone] = useState(() => !isStandalone())

  useEffect(() => {
    if (delayDone) return
    const timer = setTimeout(() => setDelayDone(true), STANDALONE_AUTH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [delayDone])

  if (loading || !delayDone) return <FullScreenLoader label="Verificando autenticação..." />
  if (!isAuthenticated) {
    if (signedOut) return <Navigate to="/login" replace />
    if (location.pathname === '/') return <Navigate to="/landing" replace />
    return <Navigate to={loginPathFor(location.pathname + location.search + location.hash)} replace />
  }
  return <Outlet />
}
