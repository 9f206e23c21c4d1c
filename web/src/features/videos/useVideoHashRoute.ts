import { useCallback, useEffect, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'

interface ModalState {
  videoModal?: boolean
}

const idFromHash = (hash: string) => {
  const raw = hash.replace(/^#/, '')
  try {
    return raw ? decodeURIComponent(raw) : null
  } catch {
    return null
  }
}

/**
 * The player dialog lives in the URL (`/conteudos-exclusivos#{videoId}`), so a
 * shared link opens it. Opening pushes a history entry, so Back closes it;
 * closing goes back to that entry. A link that lands on the hash is first
 * turned into the same two entries (the library under the dialog), so Back
 * and close agree — as the community's `?post=` modal does.
 */
export function useVideoHashRoute() {
  const location = useLocation()
  const navigate = useNavigate()
  const videoId = idFromHash(location.hash)
  const own = (location.state as ModalState | null)?.videoModal === true
  // While the landing link is rewritten the URL briefly has no hash: the dialog stays up for this id.
  const [relinking, setRelinking] = useState<string | null>(null)
  const busy = useRef(false)
  const cancelled = useRef(false)

  useEffect(() => {
    if (!videoId || own || busy.current) return
    busy.current = true
    cancelled.current = false
    setRelinking(videoId)
    const { pathname, search } = location
    void (async () => {
      try {
        await navigate({ pathname, search, hash: '' }, { replace: true })
        if (cancelled.current) return setRelinking(null)
        await navigate({ pathname, search, hash: encodeURIComponent(videoId) }, { state: { videoModal: true } satisfies ModalState })
      } catch {
        setRelinking(null)
      } finally {
        busy.current = false
      }
    })()
  }, [videoId, own, location, navigate])

  useEffect(() => {
    if (relinking && own && videoId) setRelinking(null)
  }, [relinking, own, videoId])

  const open = useCallback(
    (id: string) => void navigate({ pathname: location.pathname, search: location.search, hash: encodeURIComponent(id) }, { state: { videoModal: true } satisfies ModalState }),
    [navigate, location.pathname, location.search],
  )

  const close = useCallback(() => {
    if (relinking) {
      cancelled.current = true
      setRelinking(null)
    }
    if (own) void navigate(-1)
    else void navigate({ pathname: location.pathname, search: location.search, hash: '' }, { replace: true })
  }, [own, relinking, navigate, location.pathname, location.search])

  return { videoId: videoId ?? relinking, open, close }
}
