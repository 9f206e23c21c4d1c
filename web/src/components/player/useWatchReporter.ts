import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import type { Span } from './types'
import { WatchTracker } from './tracker'

/** The position is saved at least every 10 s, and on leaving the page. */
export const SAVE_INTERVAL_MS = 10_000

export interface PlayerEvents {
  /** A time update: the playhead and whether the media is playing. */
  onTime: (seconds: number, playing: boolean) => void
  onDuration: (seconds: number) => void
  /**
   * Paused or ended at the playhead `seconds` (when the player knows it):
   * report at once (an ended video may complete the lesson).
   */
  onStop: (seconds?: number) => void
}

/** What a watch reporter sends: the playhead, the media length and the spans played since the last report. */
export interface WatchReport {
  position_seconds: number
  duration_seconds: number
  watched: Span[]
}

/**
 * Reports a player's position and the spans actually played: every 10 s when
 * something changed, when the player stops, and when the page is hidden or
 * left (pagehide, visibilitychange, unmounting) with `leaving` set so the
 * request can outlive the page (keepalive). A failed report keeps its spans
 * for the next one. Shared by course lessons and exclusive videos.
 */
export function useWatchReporter({
  startAt,
  enabled,
  send,
}: {
  startAt: number
  enabled: boolean
  /** Sends one report; `mounted()` says whether the player is still open when the answer arrives. */
  send: (report: WatchReport, leaving: boolean, mounted: () => boolean) => Promise<unknown>
}): PlayerEvents {
  const [tracker] = useState(() => new WatchTracker(startAt))
  const duration = useRef(0)
  // Nothing to save until the playhead leaves the position the server gave us.
  const lastSent = useRef(Math.floor(startAt))
  const mounted = useRef(false)
  const sendRef = useRef(send)
  useEffect(() => {
    sendRef.current = send
  })

  const save = useCallback(
    (leaving: boolean) => {
      const watched = tracker.take()
      const position = Math.floor(tracker.position)
      if (watched.length === 0 && position === lastSent.current) return
      lastSent.current = position
      sendRef.current({ position_seconds: position, duration_seconds: Math.round(duration.current), watched }, leaving, () => mounted.current).catch(() => {
        // Quietly: the next report (10 s later at most) carries these spans again.
        tracker.putBack(watched)
        lastSent.current = Number.NaN
      })
    },
    [tracker],
  )

  useEffect(() => {
    if (!enabled) return
    mounted.current = true
    const interval = setInterval(() => save(false), SAVE_INTERVAL_MS)
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') save(true)
    }
    const onPageHide = () => save(true)
    document.addEventListener('visibilitychange', onVisibility)
    window.addEventListener('pagehide', onPageHide)
    return () => {
      mounted.current = false
      clearInterval(interval)
      document.removeEventListener('visibilitychange', onVisibility)
      window.removeEventListener('pagehide', onPageHide)
      // Leaving the player inside the app (next lesson, closing the dialog).
      save(true)
    }
  }, [enabled, save])

  // One object for the player's life: the players subscribe once.
  return useMemo(
    () => ({
      onTime: (t: number, playing: boolean) => tracker.tick(t, playing),
      onDuration: (d: number) => {
        if (Number.isFinite(d) && d > 0) duration.current = d
      },
      onStop: (t?: number) => {
        if (t !== undefined) tracker.stop(t)
        save(false)
      },
    }),
    [save, tracker],
  )
}
