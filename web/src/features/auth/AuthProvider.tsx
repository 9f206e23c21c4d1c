import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { ApiError, apiFetch } from '@/lib/api'
import { readCsrfCookie } from '@/lib/cookies'
import type { Session, SessionUser } from './types'

export interface AuthContextValue {
  user: SessionUser | null
  session: Session | null
  /** True until the first session check completes. */
  loading: boolean
  isAuthenticated: boolean
  /** True after the user signed out on purpose: the guard then sends them to a plain /login. */
  signedOut: boolean
  /** Re-reads GET /api/auth/session (call it after a login); resolves to the user or null. */
  refresh: () => Promise<SessionUser | null>
  /** Stores a user the API just returned (e.g. the login answer) without another round trip. */
  setUser: (user: SessionUser | null) => void
  /** POST /api/auth/logout, then clears the local session and every cached query. Throws ApiError on failure. */
  signOut: () => Promise<void>
}

const AuthContext = createContext<AuthContextValue | null>(null)

async function fetchSession(): Promise<SessionUser | null> {
  // The server sets the CSRF cookie with every session and clears it on logout: without
  // it there is no session to find, so visitors skip the round trip (and its 401).
  if (!readCsrfCookie()) return null
  try {
    const res = await apiFetch<{ user: SessionUser }>('/api/auth/session')
    return res.user
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null
    throw err
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient()
  const [user, setUserState] = useState<SessionUser | null>(null)
  const [loading, setLoading] = useState(true)
  const [signedOut, setSignedOut] = useState(false)
  const checkId = useRef(0)

  const refresh = useCallback(async () => {
    const id = ++checkId.current
    try {
      const next = await fetchSession()
      if (id === checkId.current) {
        setUserState(next)
        if (next) setSignedOut(false)
      }
      return next
    } catch {
      // Unreachable server: keep whatever we knew; the offline banner explains.
      return null
    } finally {
      if (id === checkId.current) setLoading(false)
    }
  }, [])

  useEffect(() => {
    void refresh()
  }, [refresh])

  const setUser = useCallback((next: SessionUser | null) => {
    checkId.current++
    setUserState(next)
    setLoading(false)
    if (next) setSignedOut(false)
  }, [])

  const signOut = useCallback(async () => {
    await apiFetch('/api/auth/logout', { method: 'POST' })
    checkId.current++
    setSignedOut(true)
    setUserState(null)
    queryClient.clear()
  }, [queryClient])

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      session: user ? { user } : null,
      loading,
      isAuthenticated: user !== null,
      signedOut,
      refresh,
      setUser,
      signOut,
    }),
    [user, loading, signedOut, refresh, setUser, signOut],
  )
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext)
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>')
  return ctx
}

export function hasRole(user: SessionUser | null, role: string): boolean {
  return !!user && (user.roles as string[]).includes(role)
}
