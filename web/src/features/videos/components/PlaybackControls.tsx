import { useEffect, useId, useState, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react'

export const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const
/** Seconds an arrow key jumps. */
export const SEEK_STEP = 5

const speedLabel = (s: number) => `${new Intl.NumberFormat('pt-BR').format(s)}×`

function mediaIn(root: RefObject<HTMLElement | null>): HTMLVideoElement | null {
  return root.current?.querySelector('video') ?? null
}

/**
 * Keyboard shortcuts for a <video> player (HLS or file): space / k play or
 * pause, ← → seek 5 s, f fullscreen, m mute. Ignored while typing or on a
 * control that uses the key itself (buttons, selects, links).
 */
export function handlePlayerKey(e: KeyboardEvent | ReactKeyboardEvent, root: RefObject<HTMLElement | null>): void {
  if (e.altKey || e.ctrlKey || e.metaKey) return
  const target = e.target as HTMLElement
  if (target.closest('input, textarea, select, button, a, [contenteditable="true"]')) return
  const v = mediaIn(root)
  if (!v) return
  switch (e.key) {
    case ' ':
    case 'k':
    case 'K':
      if (v.paused) void v.play()?.catch(() => undefined)
      else v.pause()
      break
    case 'ArrowLeft':
      v.currentTime = Math.max(0, v.currentTime - SEEK_STEP)
      break
    case 'ArrowRight':
      v.currentTime = Number.isFinite(v.duration) ? Math.min(v.duration, v.currentTime + SEEK_STEP) : v.currentTime + SEEK_STEP
      break
    case 'f':
    case 'F':
      if (document.fullscreenElement) void document.exitFullscreen?.()
      else void v.requestFullscreen?.()?.catch(() => undefined)
      break
    case 'm':
    case 'M':
      v.muted = !v.muted
      break
    default:
      return
  }
  // The browser's own handling (page scroll on space, native controls) would act twice.
  e.preventDefault()
}

/** The speed choice of a <video> player; YouTube and Vimeo bring their own. */
export function SpeedSelect({ root }: { root: RefObject<HTMLElement | null> }) {
  const id = useId()
  const [speed, setSpeed] = useState(1)
  // A new source (hls.js attaching) resets the rate: keep the reader's choice.
  useEffect(() => {
    const v = mediaIn(root)
    if (!v) return
    const keep = () => {
      if (v.playbackRate !== speed) v.playbackRate = speed
    }
    keep()
    v.addEventListener('loadedmetadata', keep)
    return () => v.removeEventListener('loadedmetadata', keep)
  }, [root, speed])
  return (
    <div className="inline-flex items-center gap-2 text-sm">
      <label htmlFor={id} className="font-medium">
        Velocidade
      </label>
      <select id={id} value={String(speed)} onChange={(e) => setSpeed(Number(e.target.value))} className="h-9 rounded-lg border border-border bg-card px-2 text-sm">
        {SPEEDS.map((s) => (
          <option key={s} value={String(s)}>
            {speedLabel(s)}
          </option>
        ))}
      </select>
    </div>
  )
}
