import { useCallback } from 'react'
import { useModalRoute, type ModalURL } from '@/lib/useModalRoute'

function withPost(search: string, postId: string | null): string {
  const params = new URLSearchParams(search)
  if (postId) params.set('post', postId)
  else params.delete('post')
  const s = params.toString()
  return s ? `?${s}` : ''
}

// The comments modal lives at `?post={id}`.
const postParam: ModalURL = {
  read: ({ search }) => new URLSearchParams(search).get('post'),
  write: ({ pathname, search }, postId) => ({ pathname, search: withPost(search, postId) }),
}

/** The comments modal in the URL (useModalRoute), opened on a post and, from a picture, on that picture. */
export function useCommentsModalRoute() {
  const { id, state, open, close } = useModalRoute(postParam, 'communityModal')
  const openPost = useCallback((postId: string, mediaIndex?: number) => open(postId, { mediaIndex }), [open])
  return { postId: id, mediaIndex: state?.mediaIndex as number | undefined, open: openPost, close }
}
