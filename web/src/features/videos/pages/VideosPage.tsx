import { useState } from 'react'
import { Lock } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { emptyQuery, hasFilters, loadFailure, useVideoList, type VideoQuery } from '../api'
import { VideoCard } from '../components/VideoCard'
import { VideoDialog } from '../components/VideoDialog'
import { VideoFiltersBar } from '../components/VideoFiltersBar'
import { VideoStats } from '../components/VideoStats'
import { messages } from '../messages'
import { useVideoHashRoute } from '../useVideoHashRoute'
import { useNextPageOnScroll } from '@/lib/useNextPageOnScroll'

function VideoResults({ query, onOpen }: { query: VideoQuery; onOpen: (id: string) => void }) {
  const list = useVideoList(query)
  const sentinel = useNextPageOnScroll(list)
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = list

  if (list.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Carregando vídeos..." />
      </div>
    )
  }
  if (list.isError) {
    return (
      <div className="flex flex-col items-center gap-3 py-10 text-center">
        <p role="alert" className="font-medium">
          {loadFailure(list.error)}
        </p>
        <Button variant="outline" onClick={() => void list.refetch()}>
          {messages.retry}
        </Button>
      </div>
    )
  }
  const videos = list.data.pages.flatMap((p) => p.videos)
  if (videos.length === 0) {
    return (
      <div className="py-10 text-center text-muted-foreground">
        <p className="font-medium text-foreground">{messages.noVideos}</p>
        {hasFilters(query) && <p className="text-sm">{messages.noVideosHint}</p>}
      </div>
    )
  }
  return (
    <div className="flex flex-col gap-4">
      <ul aria-label="Vídeos" aria-busy={isFetchingNextPage} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        {videos.map((v) => (
          <li key={v.id}>
            <VideoCard video={v} onOpen={onOpen} />
          </li>
        ))}
      </ul>
      {hasNextPage ? (
        <div ref={sentinel} className="flex flex-col items-center gap-2 py-2">
          {isFetchNextPageError && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {messages.loadFailed}
            </p>
          )}
          <Button variant="outline" loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
            {messages.loadMore}
          </Button>
        </div>
      ) : (
        <p className="py-2 text-center text-sm text-muted-foreground">{messages.endOfList}</p>
      )}
    </div>
  )
}

/** /conteudos-exclusivos: statistics, filters, the library 8 then 4 at a time, and the player dialog at `#videoId`. */
export default function VideosPage() {
  usePageTitle(messages.title)
  const [query, setQuery] = useState<VideoQuery>(emptyQuery)
  const modal = useVideoHashRoute()
  return (
    <div className="flex flex-col gap-5 py-2">
      <header className="flex flex-col gap-1">
        <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight">
          <Lock aria-hidden="true" className="size-7 text-primary" /> {messages.title}
        </h1>
        <p className="text-muted-foreground">Vídeos exclusivos com especialistas: assista, favorite e acompanhe seu progresso.</p>
      </header>
      <VideoStats />
      <VideoFiltersBar query={query} onChange={setQuery} />
      <VideoResults query={query} onOpen={modal.open} />
      {modal.videoId && <VideoDialog key={modal.videoId} videoId={modal.videoId} onClose={modal.close} />}
    </div>
  )
}
