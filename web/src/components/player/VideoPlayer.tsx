import { useEffect, useMemo, useRef, useState } from 'react'
import type { LessonVideo } from './types'
import { FilePlayer, frame } from './FilePlayer'
import type { PlayerEvents } from './useWatchReporter'

// The page's Content-Security-Policy allows scripts from our origin only, so
// the YouTube IFrame API and Vimeo's player.js cannot be loaded: both players
// are driven through their postMessage protocols, which those scripts wrap.

const noop: PlayerEvents = { onTime: () => undefined, onDuration: () => undefined, onStop: () => undefined }

function parseMessage(data: unknown): Record<string, unknown> | null {
  if (typeof data === 'string') {
    try {
      const parsed: unknown = JSON.parse(data)
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null
    } catch {
      return null
    }
  }
  return data && typeof data === 'object' ? (data as Record<string, unknown>) : null
}

/** A protected stream's signed, short-lived address (core/media StreamPath). */
const isSigned = (url: string) => url.startsWith('/api/media/stream/')

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)

const frameClass = 'h-full w-full border-0'
const ALLOW = 'accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; fullscreen'

/** YouTube player states (IFrame API). */
const YT_PLAYING = 1
const YT_ENDED = 0
const YT_PAUSED = 2

function YouTubePlayer({ embedUrl, title, startAt, events }: { embedUrl: string; title: string; startAt: number; events: PlayerEvents }) {
  const frame = useRef<HTMLIFrameElement>(null)
  // Built once: a new src would reload the video from the start.
  const [src] = useState(() => {
    const u = new URL(embedUrl)
    u.searchParams.set('enablejsapi', '1')
    u.searchParams.set('origin', window.location.origin)
    u.searchParams.set('rel', '0')
    u.searchParams.set('playsinline', '1')
    if (startAt > 0) u.searchParams.set('start', String(Math.floor(startAt)))
    return u.toString()
  })
  const origin = new URL(src).origin
  const heard = useRef(false)

  useEffect(() => {
    let state = -1
    let time = startAt
    const onMessage = (e: MessageEvent) => {
      if (!frame.current || e.source !== frame.current.contentWindow) return
      const msg = parseMessage(e.data)
      if (!msg) return
      heard.current = true
      const info = msg.info
      if (msg.event === 'onStateChange' && num(info) !== null) {
        state = info as number
        events.onTime(time, state === YT_PLAYING)
        if (state === YT_PAUSED || state === YT_ENDED) events.onStop()
        return
      }
      if ((msg.event === 'infoDelivery' || msg.event === 'initialDelivery') && info && typeof info === 'object') {
        const i = info as Record<string, unknown>
        const d = num(i.duration)
        if (d) events.onDuration(d)
        const s = num(i.playerState)
        const wasPlaying = state === YT_PLAYING
        if (s !== null) state = s
        const t = num(i.currentTime)
        if (t !== null) {
          time = t
          events.onTime(t, state === YT_PLAYING)
        }
        if (wasPlaying && (state === YT_PAUSED || state === YT_ENDED)) events.onStop()
      }
    }
    window.addEventListener('message', onMessage)
    return () => window.removeEventListener('message', onMessage)
  }, [events, startAt])

  // The player only talks once told someone listens; it may miss the first
  // call while it boots, so ask again until it answers.
  const onLoad = () => {
    let tries = 0
    const hello = () => {
      const w = frame.current?.contentWindow
      if (!w || heard.current || tries++ > 20) return
      w.postMessage(JSON.stringify({ event: 'listening', id: 'vetclube', channel: 'widget' }), origin)
      w.postMessage(JSON.stringify({ event: 'command', func: 'addEventListener', args: ['onStateChange'], id: 'vetclube', channel: 'widget' }), origin)
      setTimeout(hello, 500)
    }
    hello()
  }

  return <iframe ref={frame} src={src} title={title} allow={ALLOW} allowFullScreen referrerPolicy="strict-origin-when-cross-origin" onLoad={onLoad} className={frameClass} />
}

function VimeoPlayer({ embedUrl, title, startAt, events }: { embedUrl: string; title: string; startAt: number; events: PlayerEvents }) {
  const frame = useRef<HTMLIFrameElement>(null)
  const [src] = useState(() => {
    const u = new URL(embedUrl)
    u.searchParams.set('dnt', '1')
    u.searchParams.set('playsinline', '1')
    if (startAt > 0) u.hash = `t=${Math.floor(startAt)}s`
    return u.toString()
  })
  const origin = new URL(src).origin

  useEffect(() => {
    let playing = false
    const post = (method: string, value?: unknown) =>
      frame.current?.contentWindow?.postMessage(JSON.stringify(value === undefined ? { method } : { method, value }), origin)
    const onMessage = (e: MessageEvent) => {
      if (!frame.current || e.source !== frame.current.contentWindow) return
      const msg = parseMessage(e.data)
      if (!msg) return
      const data = (msg.data && typeof msg.data === 'object' ? msg.data : {}) as Record<string, unknown>
      switch (msg.event) {
        case 'ready':
          for (const ev of ['timeupdate', 'play', 'pause', 'ended', 'seeked']) post('addEventListener', ev)
          break
        case 'play':
          playing = true
          break
        case 'pause':
        case 'ended':
          playing = false
          events.onStop(num(data.seconds) ?? undefined)
          break
        case 'seeked':
          // The jump itself was not watched.
          events.onTime(num(data.seconds) ?? 0, false)
          break
        case 'timeupdate': {
          const d = num(data.duration)
          if (d) events.onDuration(d)
          const t = num(data.seconds)
          if (t !== null) events.onTime(t, playing)
          break
        }
      }
    }
    window.addEventListener('message', onMessage)
    return () => window.removeEventListener('message', onMessage)
  }, [events, origin])

  return <iframe ref={frame} src={src} title={title} allow={ALLOW} allowFullScreen referrerPolicy="strict-origin-when-cross-origin" className={frameClass} />
}

/**
 * The lesson's (or the course intro's, or an exclusive video's) video in a
 * 16:9 frame; a file or HLS stream gets the player's own controls under it
 * (quality, speed, captions, keyboard shortcuts). `events`
 * receives the playhead for progress tracking; `startAt` resumes the saved
 * position.
 */
export function VideoPlayer({
  video,
  title,
  startAt = 0,
  poster,
  events = noop,
  onExpired,
}: {
  video: LessonVideo
  title: string
  startAt?: number
  poster?: string | null
  events?: PlayerEvents
  /**
   * Asks the page for the video again when its stream's signed address expired
   * (an uploaded video's address lives a few hours); the new address resumes
   * where playback was.
   */
  onExpired?: () => void
}) {
  const last = useRef(startAt)
  const [resumeFrom, setResumeFrom] = useState<number | null>(null)
  // The stream playing. Each read of the page signs its uploaded video again
  // (a new address for the same stream): that one is taken only once the
  // playing address has expired, so a page refreshing its data never restarts
  // the video. Any other new source plays at once.
  const [playing, setPlaying] = useState(video)
  const [renewing, setRenewing] = useState(false)
  if (video.url !== playing.url && (renewing || !(isSigned(video.url) && isSigned(playing.url)))) {
    setPlaying(video)
    setRenewing(false)
  }
  const tracked = useMemo<PlayerEvents>(
    () => ({
      ...events,
      onTime: (t, playing) => {
        last.current = t
        events.onTime(t, playing)
      },
    }),
    [events],
  )
  const expired = useMemo(
    () =>
      onExpired &&
      (() => {
        setResumeFrom(last.current)
        setRenewing(true)
        onExpired()
      }),
    [onExpired],
  )
  if (video.source === 'youtube' && video.embed_url) {
    return (
      <div className={frame}>
        <YouTubePlayer embedUrl={video.embed_url} title={title} startAt={startAt} events={events} />
      </div>
    )
  }
  if (video.source === 'vimeo' && video.embed_url) {
    return (
      <div className={frame}>
        <VimeoPlayer embedUrl={video.embed_url} title={title} startAt={startAt} events={events} />
      </div>
    )
  }
  // A new address is a new player: its renditions, captions and position start
  // afresh (a renewed one at the second playback had reached).
  return (
    <FilePlayer
      key={playing.url}
      video={playing}
      title={title}
      startAt={resumeFrom ?? startAt}
      poster={poster}
      events={tracked}
      onExpired={expired}
    />
  )
}
