import { useEffect, useRef } from 'react'

/** The parts of an infinite query the sentinel needs. */
interface NextPages {
  hasNextPage: boolean
  isFetchingNextPage: boolean
  isFetchNextPageError: boolean
  fetchNextPage: () => Promise<unknown>
}

/**
 * A ref for an element at the end of a list: when it comes within 600 px of
 * the viewport the next page loads. After a failed page it waits for the
 * list's 'Carregar mais' button (scrolling must not hammer a failing server);
 * browsers without IntersectionObserver use that button too.
 */
export function useNextPageOnScroll<T extends HTMLElement = HTMLDivElement>(q: NextPages) {
  const sentinel = useRef<T>(null)
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = q
  useEffect(() => {
    const el = sentinel.current
    if (!el || !hasNextPage || isFetchNextPageError || typeof IntersectionObserver === 'undefined') return
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage()
      },
      { rootMargin: '600px' },
    )
    io.observe(el)
    return () => io.disconnect()
  }, [hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage])
  return sentinel
}
