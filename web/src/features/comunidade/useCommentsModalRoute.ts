import { useCallback, useEffect, useRef, useState } from 'react'
import { useLocation, useNavigate, useSearchParams } from 'react-router'

interface ModalState {
  communityModal?: boolean
  mediaIndex?: number
}

function withPost(search: string, postId: string | null): string {
  const params = new URLSearchParams(search)
  if (postId) params.set('post', postId)
  else params.delete('post')
  const s = params.toString()
  return s ? `?${s}` : ''
}

/**
 * The comments modal lives in the URL (`?post={id}`), so notifications and
 * shared links open it. Opening pushes a history entry, so Back closes it;
 * closing goes back to that entry. A link that lands directly on ?post= (the
 * notification bell, a push click, a pasted link) is first turned into the
 * same two entries, the feed under the modal, so Back and close agree.
 */
export function useCommentsModalRoute() {
  const [params] = useSearchParams()
  const location = useLocation()
  const navigate = useNavigate()
  const postId = params.get('post')
  const state = (location.state ?? null) as ModalState | null
  const own = state?.communityModal === true
  // While the landing link is being rewritten the URL briefly has no ?post=:
  // the modal stays up for this id until the rewritten entry is on screen.
  const [relinking, setRelinking] = useState<string | null>(null)
  const busy = useRef(false)
  const cancelled = useRef(false)

  useEffect(() => {
    if (!postId || own || busy.current) return
    busy.current = true
    cancelled.current = false
    setRelinking(postId)
    const { pathname, search } = location
    void (async () => {
      try {
        await navigate({ pathname, search: withPost(search, null) }, { replace: true })
        if (cancelled.current) return setRelinking(null)
        await navigate({ pathname, search: withPost(search, postId) }, { state: { communityModal: true } satisfies ModalState })
      } catch {
        setRelinking(null)
      } finally {
        busy.current = false
      }
    })()
  }, [postId, own, location, navigate])

  // Router updates render as transitions, after plain state updates: let go
  // of the bridge only once the pushed entry is what the page shows.
  useEffect(() => {
    if (relinking && own && postId) setRelinking(null)
  }, [relinking, own, postId])

  const open = useCallback(
    (id: string, mediaIndex?: number) =>
      void navigate({ pathname: location.pathname, search: withPost(location.search, id) }, { state: { communityModal: true, mediaIndex } satisfies ModalState }),
    [navigate, location.pathname, location.search],
  )

  const close = useCallback(() => {
    if (relinking) {
      cancelled.current = true
      setRelinking(null)
    }
    if (own) void navigate(-1)
    else void navigate({ pathname: location.pathname, search: withPost(location.search, null) }, { replace: true })
  }, [own, relinking, navigate, location.pathname, location.search])

  return { postId: postId ?? relinking, mediaIndex: own ? state?.mediaIndex : undefined, open, close }
}
