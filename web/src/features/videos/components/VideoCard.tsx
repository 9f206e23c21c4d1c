import { useId } from 'react'
import { CheckCircle2, Clock, Crown, Eye, Lock, PlayCircle, ThumbsUp } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { FavoriteToggle } from '@/components/FavoriteToggle'
import { useToggleFavorite, type VideoCard as Video } from '../api'
import { likesLabel, viewsLabel } from '../format'

/** One video of the library: the title opens the player dialog (`#id`); the heart stays its own button. */
export function VideoCard({ video, onOpen }: { video: Video; onOpen: (id: string) => void }) {
  const titleId = useId()
  const favorite = useToggleFavorite(video.id)
  return (
    <article aria-labelledby={titleId} className="relative flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-card shadow-sm transition hover:shadow-md">
      <div className="relative aspect-video bg-muted">
        {video.thumbnail ? (
          <img src={video.thumbnail} alt="" loading="lazy" className="h-full w-full object-cover" />
        ) : (
          <div className="flex h-full items-center justify-center text-muted-foreground">
            <PlayCircle aria-hidden="true" className="h-10 w-10" />
          </div>
        )}
        {video.locked && (
          <div className="absolute inset-0 flex items-center justify-center bg-black/40 text-white">
            <Lock aria-hidden="true" className="h-8 w-8" />
          </div>
        )}
        <div className="absolute left-3 top-3 flex gap-2">
          {video.locked && (
            <Badge variant="warning">
              <Crown aria-hidden="true" className="h-3.5 w-3.5" /> Premium
            </Badge>
          )}
          {video.is_completed && (
            <Badge variant="success">
              <CheckCircle2 aria-hidden="true" className="h-3.5 w-3.5" /> Concluído
            </Badge>
          )}
        </div>
        {video.duration && (
          <span className="absolute bottom-2 right-2 inline-flex items-center gap-1 rounded bg-black/75 px-1.5 py-0.5 text-xs font-medium text-white">
            <Clock aria-hidden="true" className="h-3 w-3" />
            <span className="sr-only">Duração: </span>
            {video.duration}
          </span>
        )}
      </div>
      <FavoriteToggle toggle={favorite} title={video.title} favorite={video.is_favorite} className="absolute right-3 top-3 z-10" />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex flex-wrap items-center gap-2 text-xs">
          {video.category && <Badge variant="secondary">{video.category.name}</Badge>}
          {video.difficulty && <Badge variant="outline">{video.difficulty}</Badge>}
        </div>
        <h2 id={titleId} className="text-base font-semibold leading-snug">
          {/* The stretched link makes the whole card open the player, with one tab stop. */}
          <a
            href={`#${encodeURIComponent(video.id)}`}
            onClick={(e) => {
              e.preventDefault()
              onOpen(video.id)
            }}
            className="after:absolute after:inset-0 focus-visible:outline-none focus-visible:after:rounded-2xl focus-visible:after:outline-2 focus-visible:after:outline-ring"
          >
            {video.title}
          </a>
        </h2>
        {video.instructor && <p className="text-sm font-medium">{video.instructor}</p>}
        <ul className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-1 pt-1 text-xs text-muted-foreground">
          <li className="inline-flex items-center gap-1">
            <Eye aria-hidden="true" className="h-3.5 w-3.5" />
            {viewsLabel(video.views)}
          </li>
          <li className="inline-flex items-center gap-1">
            <ThumbsUp aria-hidden="true" className="h-3.5 w-3.5" />
            {likesLabel(video.likes)}
          </li>
        </ul>
      </div>
    </article>
  )
}
