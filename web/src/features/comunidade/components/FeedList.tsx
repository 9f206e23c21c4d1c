import type { ReactNode } from 'react'
import { Button } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { useFeed, type FeedFilter } from '../api'
import { messages } from '../messages'
import { PostCard } from './PostCard'
import { useNextPageOnScroll } from '@/lib/useNextPageOnScroll'

/**
 * Posts newest first. The next page loads when the end of the list comes into
 * view; the 'Carregar mais' button does the same for keyboards and for
 * browsers without IntersectionObserver.
 */
export function FeedList({ filter, onOpen, empty }: { filter: FeedFilter; onOpen: (postId: string, mediaIndex?: number) => void; empty: ReactNode }) {
  const feed = useFeed(filter)
  const sentinel = useNextPageOnScroll(feed)
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = feed

  if (feed.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Carregando publicações..." />
      </div>
    )
  }
  if (feed.isError) {
    return (
      <div className="flex flex-col items-center gap-3 py-10 text-center">
        <p role="alert" className="font-medium">
          {messages.loadFeedFailed}
        </p>
        <Button variant="outline" onClick={() => void feed.refetch()}>
          Tentar novamente
        </Button>
      </div>
    )
  }

  const posts = feed.data.pages.flatMap((p) => p.items)
  if (posts.length === 0) return <div className="py-10 text-center text-muted-foreground">{empty}</div>
  return (
    <div className="flex flex-col gap-4">
      <div role="feed" aria-label="Publicações" aria-busy={isFetchingNextPage} className="flex flex-col gap-4">
        {posts.map((post, i) => (
          <PostCard key={post.id} post={post} position={i + 1} setSize={hasNextPage ? -1 : posts.length} onOpen={(mediaIndex) => onOpen(post.id, mediaIndex)} />
        ))}
      </div>
      {hasNextPage ? (
        <div ref={sentinel} className="flex flex-col items-center gap-2 py-2">
          {isFetchNextPageError && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {messages.loadFeedFailed}
            </p>
          )}
          <Button variant="outline" loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
            Carregar mais
          </Button>
        </div>
      ) : (
        <p className="py-2 text-center text-sm text-muted-foreground">Você chegou ao fim das publicações.</p>
      )}
    </div>
  )
}
