import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react'
import Markdown from 'react-markdown'
import { useQueryClient } from '@tanstack/react-query'
import { CheckCircle2, Eye, ThumbsUp, X } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { DialogToastAnnouncer, raiseToaster } from '@/components/ui/Toaster'
import { cn } from '@/lib/cn'
import { FavoriteToggle } from '@/components/FavoriteToggle'
import { PremiumInvite } from '@/components/PremiumInvite'
import { resumeAt } from '@/components/player/embed'
import { MAX_STEP_SECONDS } from '@/components/player/tracker'
import { useWatchReporter, type PlayerEvents, type WatchReport } from '@/components/player/useWatchReporter'
import { VideoPlayer } from '@/components/player/VideoPlayer'
import {
  failureMessage,
  isNotFound,
  isPremiumRequired,
  loadFailure,
  recordView,
  saveVideoProgress,
  useSetCompleted,
  useToggleFavorite,
  useToggleLike,
  useVideo,
  type VideoDetail,
} from '../api'
import { likesLabel, viewsLabel } from '../format'
import { messages } from '../messages'
import { viewThreshold } from '../viewRule'

/**
 * Counts seconds actually played (continuous steps of a playing player, as the
 * watch tracker does) and records the view once, at 30 s or at the end of a
 * shorter video.
 */
function useViewRecorder(videoId: string, knownDuration: number, events: PlayerEvents): PlayerEvents {
  const qc = useQueryClient()
  const state = useRef({ played: 0, last: null as number | null, sent: false, duration: knownDuration })
  return useMemo(() => {
    const maybeRecord = () => {
      const s = state.current
      if (s.sent || s.played < viewThreshold(s.duration)) return
      s.sent = true
      recordView(qc, videoId).catch(() => {
        // Tried again on the next time update.
        s.sent = false
      })
    }
    return {
      ...events,
      onDuration: (d: number) => {
        events.onDuration(d)
        if (Number.isFinite(d) && d > 0) state.current.duration = d
      },
      onTime: (t: number, playing: boolean) => {
        events.onTime(t, playing)
        const s = state.current
        if (playing && s.last !== null && t > s.last && t - s.last <= MAX_STEP_SECONDS) s.played += t - s.last
        s.last = playing ? t : null
        maybeRecord()
      },
      onStop: (t?: number) => {
        const s = state.current
        // The last stretch before a pause or the end, which no time update reported.
        if (t !== undefined && s.last !== null && t > s.last && t - s.last <= MAX_STEP_SECONDS) s.played += t - s.last
        s.last = null
        events.onStop(t)
        maybeRecord()
      },
    }
  }, [events, qc, videoId])
}

function LikeButton({ video }: { video: VideoDetail }) {
  const like = useToggleLike(video.id)
  return (
    <button
      type="button"
      aria-pressed={video.user_liked}
      // The name holds the visible count (WCAG 2.5.3).
      aria-label={`Curtir vídeo, ${likesLabel(video.likes)}`}
      // A second click while the first is on its way is ignored, keeping the focus.
      aria-disabled={like.isPending || undefined}
      onClick={() => {
        if (!like.isPending) like.mutate()
      }}
      className={buttonClasses('outline', 'md')}
    >
      <ThumbsUp aria-hidden="true" className={cn('h-4 w-4', video.user_liked && 'fill-primary text-primary')} />
      {likesLabel(video.likes)}
    </button>
  )
}

function CompleteButton({ video }: { video: VideoDetail }) {
  const complete = useSetCompleted(video.id)
  const set = () => {
    if (!complete.isPending) complete.mutate(!video.is_completed)
  }
  if (video.is_completed) {
    return (
      <span className="inline-flex items-center gap-2">
        <Badge variant="success">
          <CheckCircle2 aria-hidden="true" className="h-3.5 w-3.5" /> Concluído
        </Badge>
        <Button variant="ghost" size="sm" aria-label={`${messages.unmarkCompleted} como concluído`} loading={complete.isPending} onClick={set}>
          {messages.unmarkCompleted}
        </Button>
      </span>
    )
  }
  return (
    <Button loading={complete.isPending} onClick={set}>
      <CheckCircle2 aria-hidden="true" className="h-4 w-4" /> {messages.markCompleted}
    </Button>
  )
}

/** One video, mounted per id: the position it resumes from is read once, when it opens. */
function VideoView({ video, onExpired }: { video: VideoDetail; onExpired: () => void }) {
  const qc = useQueryClient()
  // A video watched to its end starts again from the beginning.
  const [startAt] = useState(() => resumeAt(video.resume_at, video.duration_seconds))
  const send = useCallback((report: WatchReport, leaving: boolean) => saveVideoProgress(qc, video.id, report, leaving), [qc, video.id])
  const reporter = useWatchReporter({ startAt, enabled: true, send })
  const events = useViewRecorder(video.id, video.duration_seconds, reporter)
  const favorite = useToggleFavorite(video.id)
  return (
    <div className="flex min-w-0 flex-col gap-4">
      {/* A file or HLS stream brings its own quality, speed, captions and keyboard shortcuts; YouTube and Vimeo theirs. */}
      <div role="group" aria-label="Player de vídeo">
        <VideoPlayer video={video.video} title={video.title} startAt={startAt} poster={video.thumbnail} events={events} onExpired={onExpired} />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <CompleteButton video={video} />
        <LikeButton video={video} />
        <FavoriteToggle toggle={favorite} title={video.title} favorite={video.is_favorite} withText />
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        {video.category && <Badge variant="secondary">{video.category.name}</Badge>}
        {video.difficulty && <Badge variant="outline">{video.difficulty}</Badge>}
        {video.duration && <span>{video.duration}</span>}
        <span className="inline-flex items-center gap-1">
          <Eye aria-hidden="true" className="h-4 w-4" />
          {viewsLabel(video.views)}
        </span>
        {video.instructor && <span className="font-medium text-foreground">{video.instructor}</span>}
      </div>
      {video.description && (
        <div className="prose max-w-none dark:prose-invert">
          <Markdown skipHtml>{video.description}</Markdown>
        </div>
      )}
    </div>
  )
}

function DialogBody({ videoId, onTitle }: { videoId: string; onTitle: (t: string) => void }) {
  const video = useVideo(videoId)
  const title = video.data?.title
  useEffect(() => {
    if (title) onTitle(title)
  }, [title, onTitle])
  if (video.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Carregando vídeo..." />
      </div>
    )
  }
  if (video.isError && !video.data) {
    if (isPremiumRequired(video.error)) return <PremiumInvite message={failureMessage(video.error, messages.premiumText)} />
    if (isNotFound(video.error)) {
      return (
        <p role="alert" className="py-10 text-center font-medium">
          {failureMessage(video.error, messages.videoNotFound)}
        </p>
      )
    }
    return (
      <div className="flex flex-col items-center gap-3 py-10 text-center">
        <p role="alert" className="font-medium">
          {loadFailure(video.error)}
        </p>
        <Button variant="outline" onClick={() => void video.refetch()}>
          {messages.retry}
        </Button>
      </div>
    )
  }
  // An expired stream address is renewed by reading the video again.
  return <VideoView key={video.data.id} video={video.data} onExpired={() => void video.refetch()} />
}

/**
 * The player dialog of `#videoId`: a native modal <dialog> (focus trap,
 * Escape, inert page, focus return). `onClose` owns leaving (the hash), so
 * the dialog never closes itself; unmounting saves the position.
 */
export function VideoDialog({ videoId, onClose }: { videoId: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const [title, setTitle] = useState('')
  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) {
      dialog.showModal?.()
      raiseToaster()
    }
  }, [])
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-modal="true"
      onCancel={(e) => {
        e.preventDefault()
        onClose()
      }}
      onClose={(e) => e.target === e.currentTarget && onClose()}
      onClick={(e) => e.target === ref.current && onClose()}
      className="m-auto max-h-[95dvh] w-[min(calc(100%-1rem),1000px)] max-w-full overflow-y-auto rounded-2xl border border-border bg-card p-0 text-card-foreground shadow-xl backdrop:bg-black/70"
    >
      <div className="flex flex-col gap-4 p-4 sm:p-6">
        <div className="flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-lg font-semibold sm:text-xl">
            {title || 'Vídeo'}
          </h2>
          <button type="button" onClick={onClose} className="rounded-md p-1 text-muted-foreground hover:bg-muted" aria-label="Fechar">
            <X aria-hidden="true" className="h-5 w-5" />
          </button>
        </div>
        <DialogBody videoId={videoId} onTitle={setTitle} />
      </div>
      <DialogToastAnnouncer />
    </dialog>
  )
}
