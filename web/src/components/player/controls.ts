// The pure rules of the <video> player's own controls (quality, speed,
// captions, keyboard shortcuts), kept apart from React and hls.js so they are
// tested on their own.

export const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const

/** "1,5×": the decimal comma of pt-BR. */
export const speedLabel = (s: number) => `${new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 }).format(s)}×`

/** hls.js's automatic choice (its level index -1). */
export const AUTO = -1
/** Captions off (hls.js's subtitle track -1). */
export const OFF = -1

export interface Option {
  value: number
  label: string
}

/** What the player needs of an hls.js level (a rendition of the master playlist). */
export interface LevelInfo {
  height?: number
  width?: number
  bitrate?: number
  name?: string
}

/** "720p" from the height; the playlist's NAME or the bitrate when the height is unknown. */
export function levelLabel(level: LevelInfo): string {
  if (level.height && level.height > 0) return `${level.height}p`
  if (level.name && level.name.trim()) return level.name.trim()
  if (level.bitrate && level.bitrate > 0) return `${Math.round(level.bitrate / 1000)} kbps`
  return 'Qualidade desconhecida'
}

/**
 * 'Automática' then the renditions, best first. The value is hls.js's level
 * index; two renditions of one height are told apart by their bitrate.
 */
export function qualityOptions(levels: LevelInfo[]): Option[] {
  const labels = levels.map(levelLabel)
  const options = levels.map((l, i) => {
    const twin = labels.some((other, j) => j !== i && other === labels[i])
    const label = twin && l.bitrate ? `${labels[i]} (${Math.round(l.bitrate / 1000)} kbps)` : labels[i]!
    return { value: i, label, height: l.height ?? 0, bitrate: l.bitrate ?? 0 }
  })
  options.sort((a, b) => b.height - a.height || b.bitrate - a.bitrate)
  return [{ value: AUTO, label: 'Automática' }, ...options.map(({ value, label }) => ({ value, label }))]
}

/** "Automática (720p)": what the automatic choice is playing now, when known. */
export function autoLabel(playing: LevelInfo | undefined): string {
  return playing && (playing.height || playing.name || playing.bitrate) ? `Automática (${levelLabel(playing)})` : 'Automática'
}

/** A subtitle track as hls.js (subtitleTracks) or the browser (textTracks) lists it. */
export interface CaptionTrack {
  name?: string
  label?: string
  lang?: string
  language?: string
}

const trackName = (t: CaptionTrack, i: number) => (t.name || t.label || t.lang || t.language || '').trim() || `Legenda ${i + 1}`

/** 'Desativadas' then each track by name; nothing at all when the stream has no track. */
export function captionOptions(tracks: CaptionTrack[]): Option[] {
  if (tracks.length === 0) return []
  return [{ value: OFF, label: 'Desativadas' }, ...tracks.map((t, i) => ({ value: i, label: trackName(t, i) }))]
}

/**
 * The track the captions shortcut turns on: the last one chosen while it
 * still exists, else the first in Portuguese, else the first. Null when
 * there is none.
 */
export function preferredCaption(tracks: CaptionTrack[], lastChosen: number | null): number | null {
  if (tracks.length === 0) return null
  if (lastChosen !== null && lastChosen >= 0 && lastChosen < tracks.length) return lastChosen
  const pt = tracks.findIndex((t) => /^pt\b/i.test(t.lang || t.language || ''))
  return pt >= 0 ? pt : 0
}

/** The captions shortcut: off when on, else the preferred track; null when there is nothing to toggle. */
export function toggleCaption(current: number, tracks: CaptionTrack[], lastChosen: number | null): number | null {
  if (tracks.length === 0) return null
  if (current >= 0) return OFF
  return preferredCaption(tracks, lastChosen)
}

/** Seconds ← → jump; J L jump twice as far. */
export const SEEK_STEP = 5
export const LONG_SEEK_STEP = 10
/** Volume ↑ ↓ step (the volume runs from 0 to 1). */
export const VOLUME_STEP = 0.1

export type PlayerAction =
  | { type: 'toggle-play' }
  | { type: 'seek'; by: number }
  | { type: 'volume'; by: number }
  | { type: 'mute' }
  | { type: 'fullscreen' }
  | { type: 'captions' }

export interface KeyInput {
  key: string
  altKey?: boolean
  ctrlKey?: boolean
  metaKey?: boolean
  /** Where the key was pressed. */
  target?: EventTarget | null
}

/** Typing places: every key is the writer's. */
const TYPING = 'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"], [role="combobox"], [role="listbox"], [role="slider"]'
/** Controls that answer Space and Enter themselves. */
const ACTIVATES = 'button, a[href], summary, [role="button"], [role="menuitem"]'

/**
 * The action a key asks of the player, or null when the key is not a
 * shortcut, has a modifier (browser and system shortcuts keep theirs), or is
 * pressed while typing (a field, a select) or Space on a button or link
 * (which presses it).
 */
export function shortcutFor(e: KeyInput): PlayerAction | null {
  if (e.altKey || e.ctrlKey || e.metaKey) return null
  const target = e.target instanceof Element ? e.target : null
  if (target?.closest(TYPING)) return null
  if ((e.key === ' ' || e.key === 'Enter') && target?.closest(ACTIVATES)) return null
  switch (e.key) {
    case ' ':
    case 'k':
    case 'K':
      return { type: 'toggle-play' }
    case 'ArrowLeft':
      return { type: 'seek', by: -SEEK_STEP }
    case 'ArrowRight':
      return { type: 'seek', by: SEEK_STEP }
    case 'j':
    case 'J':
      return { type: 'seek', by: -LONG_SEEK_STEP }
    case 'l':
    case 'L':
      return { type: 'seek', by: LONG_SEEK_STEP }
    case 'ArrowUp':
      return { type: 'volume', by: VOLUME_STEP }
    case 'ArrowDown':
      return { type: 'volume', by: -VOLUME_STEP }
    case 'm':
    case 'M':
      return { type: 'mute' }
    case 'f':
    case 'F':
      return { type: 'fullscreen' }
    case 'c':
    case 'C':
      return { type: 'captions' }
  }
  return null
}

/** The playhead after a jump: never before 0 nor past the end (when the end is known). */
export function seekTarget(current: number, by: number, duration: number): number {
  const t = Math.max(0, current + by)
  return Number.isFinite(duration) && duration > 0 ? Math.min(duration, t) : t
}

/** The volume after a step, in 0..1 with one decimal (0.1 steps never drift). */
export function volumeAfter(current: number, by: number): number {
  return Math.min(1, Math.max(0, Math.round((current + by) * 10) / 10))
}

/** The shortcuts as the help lists them, and aria-keyshortcuts. */
export const SHORTCUTS: ReadonlyArray<{ keys: string[]; does: string }> = [
  { keys: ['Espaço', 'K'], does: 'Reproduzir ou pausar' },
  { keys: ['←', '→'], does: 'Voltar ou avançar 5 segundos' },
  { keys: ['J', 'L'], does: 'Voltar ou avançar 10 segundos' },
  { keys: ['↑', '↓'], does: 'Aumentar ou diminuir o volume' },
  { keys: ['M'], does: 'Ativar ou desativar o som' },
  { keys: ['F'], does: 'Tela cheia' },
  { keys: ['C'], does: 'Ativar ou desativar as legendas' },
]

export const ARIA_KEYSHORTCUTS = 'Space k ArrowLeft ArrowRight j l ArrowUp ArrowDown m f c'
