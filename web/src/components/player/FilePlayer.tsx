import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { messages } from './messages'
import type { LessonVideo } from './types'
import {
  ARIA_KEYSHORTCUTS,
  AUTO,
  OFF,
  captionOptions,
  qualityOptions,
  seekTarget,
  shortcutFor,
  toggleCaption,
  volumeAfter,
  type CaptionTrack,
  type LevelInfo,
} from './controls'
import { loadHls } from './hls'
import { PlayerControls } from './PlayerControls'
import type { PlayerEvents } from './useWatchReporter'

export const frame = 'aspect-video w-full overflow-hidden rounded-2xl bg-black'

/** How the controls reach the stream: hls.js, or the browser's own HLS / file playback. */
interface Engine {
  setLevel: (index: number) => void
  setCaption: (index: number) => void
}

/** The subtitle and caption tracks the browser itself lists (native HLS, Safari). */
const nativeCaptionTracks = (list: TextTrackList): TextTrack[] =>
  Array.from(list).filter((t) => t.kind === 'subtitles' || t.kind === 'captions')

/**
 * Whether the browser has Media Source Extensions able to play H.264 and AAC
 * (what hls.js feeds it). hls.js is preferred there even when the browser
 * also plays HLS natively (Safari on a Mac, recent Chrome): only hls.js lists
 * the renditions for the quality choice. Without it (iPhone), the browser's
 * own HLS plays the stream.
 */
function hasMediaSource(): boolean {
  const MS = (globalThis as { MediaSource?: typeof MediaSource }).MediaSource
  return typeof MS?.isTypeSupported === 'function' && MS.isTypeSupported('video/mp4; codecs="avc1.42E01E,mp4a.40.2"')
}

type FullscreenVideo = HTMLVideoElement & { webkitEnterFullscreen?: () => void }

/**
 * A file or HLS stream in <video>: hls.js (loaded only here) where the
 * browser has Media Source Extensions, else the browser's own HLS (iPhone). Under the frame: quality (hls.js
 * renditions), speed, captions when the stream has any, and the keyboard
 * shortcuts' help; the shortcuts answer while the focus is in the player.
 */
export function FilePlayer({
  video,
  title,
  startAt,
  poster,
  events,
  onExpired,
}: {
  video: LessonVideo
  title: string
  startAt: number
  poster?: string | null
  events: PlayerEvents
  /** The stream's signed address expired (403): the page asks for a new one. */
  onExpired?: () => void
}) {
  const ref = useRef<HTMLVideoElement>(null)
  const [failed, setFailed] = useState(false)
  const resumed = useRef(false)
  const engine = useRef<Engine | null>(null)
  const [levels, setLevels] = useState<LevelInfo[]>([])
  const [level, setLevel] = useState(AUTO)
  const [playingLevel, setPlayingLevel] = useState(-1)
  const [tracks, setTracks] = useState<CaptionTrack[]>([])
  const [caption, setCaption] = useState(OFF)
  const lastCaption = useRef<number | null>(null)
  const [speed, setSpeed] = useState(1)
  const onExpiredRef = useRef(onExpired)
  useEffect(() => {
    onExpiredRef.current = onExpired
  }, [onExpired])

  useEffect(() => {
    const el = ref.current
    if (!el) return
    let cancelled = false
    let hls: { destroy: () => void } | null = null
    let unlisten = () => {}
    if (!video.hls || (!hasMediaSource() && el.canPlayType('application/vnd.apple.mpegurl'))) {
      el.src = video.url
      // Browsers list a stream's subtitles here (Safari's HLS); a DOM without it has none to offer.
      const list = el.textTracks as TextTrackList | undefined
      if (list && typeof list.addEventListener === 'function') {
        const sync = () => {
          const found = nativeCaptionTracks(list)
          setTracks(found.map((t) => ({ label: t.label, language: t.language })))
          setCaption(found.findIndex((t) => t.mode === 'showing'))
        }
        for (const ev of ['addtrack', 'removetrack', 'change']) list.addEventListener(ev, sync)
        unlisten = () => {
          for (const ev of ['addtrack', 'removetrack', 'change']) list.removeEventListener(ev, sync)
        }
        engine.current = {
          setLevel: () => undefined,
          setCaption: (i) => nativeCaptionTracks(list).forEach((t, j) => (t.mode = j === i ? 'showing' : 'disabled')),
        }
        sync()
      }
    } else {
      loadHls()
        .then(({ Hls, config }) => {
          if (cancelled) return
          if (!Hls.isSupported()) {
            if (el.canPlayType('application/vnd.apple.mpegurl')) el.src = video.url
            else setFailed(true)
            return
          }
          const player = new Hls(config)
          hls = player
          const E = Hls.Events
          const pick = () => player.levels.map((l) => ({ height: l.height, width: l.width, bitrate: l.bitrate, name: l.name }))
          player.on(E.ERROR, (_event, data) => {
            if (!data.fatal) return
            // A protected stream's address lives a few hours: once expired the
            // server answers 403 and the page fetches a fresh one.
            if (data.response?.code === 403 && onExpiredRef.current) onExpiredRef.current()
            else setFailed(true)
          })
          player.on(E.MANIFEST_PARSED, () => setLevels(pick()))
          player.on(E.LEVELS_UPDATED, () => setLevels(pick()))
          player.on(E.LEVEL_SWITCHED, (_event, data) => setPlayingLevel(data.level))
          player.on(E.SUBTITLE_TRACKS_UPDATED, (_event, data) => setTracks(data.subtitleTracks.map((t) => ({ name: t.name, lang: t.lang }))))
          player.on(E.SUBTITLE_TRACK_SWITCH, (_event, data) => setCaption(data.id))
          engine.current = {
            // currentLevel switches now (the buffer ahead is dropped); -1 is automatic again.
            setLevel: (i) => (player.currentLevel = i),
            setCaption: (i) => {
              player.subtitleDisplay = i >= 0
              player.subtitleTrack = i
            },
          }
          player.loadSource(video.url)
          player.attachMedia(el)
        })
        .catch(() => {
          if (!cancelled) setFailed(true)
        })
    }
    return () => {
      cancelled = true
      engine.current = null
      unlisten()
      hls?.destroy()
    }
  }, [video.url, video.hls])

  // A new source (hls.js attaching) resets the rate to the default one: both are set.
  useEffect(() => {
    const el = ref.current
    if (!el) return
    const keep = () => {
      el.defaultPlaybackRate = speed
      if (el.playbackRate !== speed) el.playbackRate = speed
    }
    keep()
    el.addEventListener('loadedmetadata', keep)
    return () => el.removeEventListener('loadedmetadata', keep)
  }, [speed])

  const chooseLevel = useCallback((i: number) => {
    setLevel(i)
    engine.current?.setLevel(i)
  }, [])

  const chooseCaption = useCallback((i: number) => {
    if (i >= 0) lastCaption.current = i
    setCaption(i)
    engine.current?.setCaption(i)
  }, [])

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const el = ref.current as FullscreenVideo | null
    const action = shortcutFor({ key: e.key, altKey: e.altKey, ctrlKey: e.ctrlKey, metaKey: e.metaKey, target: e.target })
    if (!el || !action) return
    switch (action.type) {
      case 'toggle-play':
        if (el.paused || el.ended) void el.play()?.catch(() => undefined)
        else el.pause()
        break
      case 'seek':
        el.currentTime = seekTarget(el.currentTime, action.by, el.duration)
        break
      case 'volume':
        el.volume = volumeAfter(el.volume, action.by)
        if (action.by > 0) el.muted = false
        break
      case 'mute':
        el.muted = !el.muted
        break
      case 'fullscreen':
        if (document.fullscreenElement) void document.exitFullscreen?.()?.catch(() => undefined)
        else if (el.requestFullscreen) void el.requestFullscreen()?.catch(() => undefined)
        else el.webkitEnterFullscreen?.()
        break
      case 'captions': {
        const next = toggleCaption(caption, tracks, lastCaption.current)
        if (next === null) return
        chooseCaption(next)
        break
      }
    }
    // The browser's own handling (page scroll on space, the native controls) would act twice.
    e.preventDefault()
  }

  const playing = (el: HTMLVideoElement) => !el.paused && !el.seeking && !el.ended

  if (failed) {
    return (
      <div className={frame}>
        <p role="alert" className="flex h-full items-center justify-center p-6 text-center text-white">
          {messages.playbackFailed}
        </p>
      </div>
    )
  }
  return (
    // Keys pressed on the video or on the controls below reach this handler.
    <div className="flex flex-col gap-3" onKeyDown={onKeyDown}>
      <div className={frame}>
        <video
          ref={ref}
          controls
          playsInline
          preload="metadata"
          tabIndex={0}
          poster={poster ?? undefined}
          aria-label={title}
          aria-keyshortcuts={ARIA_KEYSHORTCUTS}
          className="h-full w-full bg-black"
          onLoadedMetadata={(e) => {
            const el = e.currentTarget
            events.onDuration(el.duration)
            if (!resumed.current && startAt > 0 && (!Number.isFinite(el.duration) || startAt < el.duration)) el.currentTime = startAt
            resumed.current = true
          }}
          onTimeUpdate={(e) => events.onTime(e.currentTarget.currentTime, playing(e.currentTarget))}
          onSeeking={(e) => events.onTime(e.currentTarget.currentTime, false)}
          // Playback starts counting where it starts, not at the first
          // time update a quarter of a second later.
          onPlaying={(e) => events.onTime(e.currentTarget.currentTime, playing(e.currentTarget))}
          onPause={(e) => events.onStop(e.currentTarget.currentTime)}
          onEnded={(e) => events.onStop(e.currentTarget.currentTime)}
          onError={() => setFailed(true)}
        />
      </div>
      <PlayerControls
        quality={levels.length > 1 ? { options: qualityOptions(levels), value: level, playing: levels[playingLevel], onChange: chooseLevel } : null}
        speed={{ value: speed, onChange: setSpeed }}
        captions={tracks.length > 0 ? { options: captionOptions(tracks), value: caption, onChange: chooseCaption } : null}
      />
    </div>
  )
}
