import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { ApiError, apiFetch } from '@/lib/api'
import { readCsrfCookie } from '@/lib/cookies'
import { clearUserCaches } from '@/lib/userCaches'
import { forgetHomeGreeting } from '@/lib/homeShell'
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

// The last user the server confirmed, kept on this device so that a reload
// without signal opens the app (with its cached data) instead of /landing.
// The server stays the authority: the session is checked again as soon as the
// network answers, and a 401 or a sign-out forgets it.
const LAST_USER_KEY = 'vc-last-session-user'

function readLastUser(): SessionUser | null {
  try {
    const raw = localStorage.getItem(LAST_USER_KEY)
    return raw ? (JSON.parse(raw) as SessionUser) : null
  } catch {
    return null
  }
}

function storeLastUser(user: SessionUser | null) {
  try {
    if (user) localStorage.setItem(LAST_USER_KEY, JSON.stringify(user))
    else {
      localStorage.removeItem(LAST_USER_KEY)
      forgetHomeGreeting()
    }
  } catch {
    // Storage disabled: only the offline reload is lost.
  }
}

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

  // Another account's cached data never shows: a different user clears it.
  const adopt = useCallback(
    (next: SessionUser | null) => {
      const previous = readLastUser()
      if ((previous && next && previous.id !== next.id) || !next) {
        queryClient.clear()
        void clearUserCaches()
      }
      storeLastUser(next)
      setUserState(next)
      if (next) setSignedOut(false)
    },
    [queryClient],
  )

  const refresh = useCallback(async () => {
    const id = ++checkId.current
    try {
      const next = await fetchSession()
      if (id === checkId.current) adopt(next)
      return next
    } catch {
      // Unreachable server: that is not a sign-out. Keep the user we knew,
      // or the last one this device saw (a reload without signal); the
      // offline banner explains, and coming back online checks again.
      const known = readLastUser()
      if (id === checkId.current) setUserState((current) => current ?? known)
      return known
    } finally {
      if (id === checkId.current) setLoading(false)
    }
  }, [adopt])

  useEffect(() => {
    void refresh()
    const onOnline = () => void refresh()
    window.addEventListener('online', onOnline)
    return () => window.removeEventListener('online', onOnline)
  }, [refresh])

  const setUser = useCallback(
    (next: SessionUser | null) => {
      checkId.current++
      adopt(next)
      setLoading(false)
    },
    [adopt],
  )

  const signOut = useCallback(async () => {
    await apiFetch('/api/auth/logout', { method: 'POST' })
    checkId.current++
    setSignedOut(true)
    adopt(null)
  }, [adopt])

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
