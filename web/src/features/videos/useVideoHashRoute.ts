import { useModalRoute, type ModalURL } from '@/lib/useModalRoute'

const idFromHash = (hash: string) => {
  const raw = hash.replace(/^#/, '')
  try {
    return raw ? decodeURIComponent(raw) : null
  } catch {
    return null
  }
}

// The player dialog lives at `/conteudos-exclusivos#{videoId}`.
const videoHash: ModalURL = {
  read: ({ hash }) => idFromHash(hash),
  write: ({ pathname, search }, videoId) => ({ pathname, search, hash: videoId ? encodeURIComponent(videoId) : '' }),
}

/** The player dialog in the URL (useModalRoute), so a shared link opens it. */
export function useVideoHashRoute() {
  const { id, open, close } = useModalRoute(videoHash, 'videoModal')
  return { videoId: id, open, close }
}
