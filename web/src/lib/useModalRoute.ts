import { useCallback, useEffect, useRef, useState } from 'react'
import { useLocation, useNavigate, type Path } from 'react-router'

/**
 * Where a modal keeps its id in the URL (a query parameter, the hash): `read`
 * finds it, `write` gives the location with it set, or removed when null.
 * Both are module constants, so the hook's callbacks stay stable.
 */
export interface ModalURL {
  read: (at: { search: string; hash: string }) => string | null
  write: (at: { pathname: string; search: string }, id: string | null) => Partial<Path>
}

type ModalState = Record<string, unknown>

/**
 * A modal that lives in the URL, so notifications and shared links open it.
 * Opening pushes a history entry marked with `stateKey`, so Back closes it;
 * closing goes back to that entry. A link that lands directly on the modal's
 * URL (the notification bell, a push click, a pasted link) is first turned
 * into the same two entries, the page under the modal, so Back and close
 * agree. `state` is what `open` stored with the entry (only for entries this
 * hook pushed).
 */
export function useModalRoute(url: ModalURL, stateKey: string) {
  const location = useLocation()
  const navigate = useNavigate()
  const id = url.read(location)
  const state = (location.state ?? null) as ModalState | null
  const own = state?.[stateKey] === true
  // While the landing link is being rewritten the URL briefly has no id:
  // the modal stays up for this id until the rewritten entry is on screen.
  const [relinking, setRelinking] = useState<string | null>(null)
  const busy = useRef(false)
  const cancelled = useRef(false)

  useEffect(() => {
    if (!id || own || busy.current) return
    busy.current = true
    cancelled.current = false
    setRelinking(id)
    const { pathname, search } = location
    void (async () => {
      try {
        await navigate(url.write({ pathname, search }, null), { replace: true })
        if (cancelled.current) return setRelinking(null)
        await navigate(url.write({ pathname, search }, id), { state: { [stateKey]: true } satisfies ModalState })
      } catch {
        setRelinking(null)
      } finally {
        busy.current = false
      }
    })()
  }, [id, own, location, navigate, url, stateKey])

  // Router updates render as transitions, after plain state updates: let go
  // of the bridge only once the pushed entry is what the page shows.
  useEffect(() => {
    if (relinking && own && id) setRelinking(null)
  }, [relinking, own, id])

  const open = useCallback(
    (next: string, extra?: ModalState) =>
      void navigate(url.write({ pathname: location.pathname, search: location.search }, next), { state: { [stateKey]: true, ...extra } satisfies ModalState }),
    [navigate, location.pathname, location.search, url, stateKey],
  )

  const close = useCallback(() => {
    if (relinking) {
      cancelled.current = true
      setRelinking(null)
    }
    if (own) void navigate(-1)
    else void navigate(url.write({ pathname: location.pathname, search: location.search }, null), { replace: true })
  }, [own, relinking, navigate, location.pathname, location.search, url])

  return { id: id ?? relinking, state: own ? state : null, open, close }
}
