import { describe, expect, it } from 'vitest'
import {
  AUTO,
  OFF,
  autoLabel,
  captionOptions,
  levelLabel,
  preferredCaption,
  qualityOptions,
  seekTarget,
  shortcutFor,
  speedLabel,
  SPEEDS,
  toggleCaption,
  volumeAfter,
} from './controls'

describe('quality', () => {
  it('labels a level by its height, else its name, else its bitrate', () => {
    expect(levelLabel({ height: 720, width: 1280, bitrate: 2_800_000 })).toBe('720p')
    expect(levelLabel({ height: 0, name: 'Alta', bitrate: 1 })).toBe('Alta')
    expect(levelLabel({ bitrate: 1_234_567 })).toBe('1235 kbps')
    expect(levelLabel({})).toBe('Qualidade desconhecida')
  })

  it("lists 'Automática' then the renditions best first, valued by hls.js's level index", () => {
    const options = qualityOptions([
      { height: 360, bitrate: 800_000 },
      { height: 1080, bitrate: 5_000_000 },
      { height: 720, bitrate: 2_800_000 },
    ])
    expect(options).toEqual([
      { value: AUTO, label: 'Automática' },
      { value: 1, label: '1080p' },
      { value: 2, label: '720p' },
      { value: 0, label: '360p' },
    ])
  })

  it('tells two renditions of one height apart by their bitrate', () => {
    expect(qualityOptions([{ height: 720, bitrate: 1_500_000 }, { height: 720, bitrate: 3_000_000 }]).map((o) => o.label)).toEqual([
      'Automática',
      '720p (3000 kbps)',
      '720p (1500 kbps)',
    ])
  })

  it('says what the automatic choice plays when it is known', () => {
    expect(autoLabel({ height: 720 })).toBe('Automática (720p)')
    expect(autoLabel(undefined)).toBe('Automática')
  })
})

describe('speed', () => {
  it('offers 0,5× to 2× with the pt-BR decimal comma', () => {
    expect(SPEEDS.map(speedLabel)).toEqual(['0,5×', '0,75×', '1×', '1,25×', '1,5×', '2×'])
  })
})

describe('captions', () => {
  const tracks = [
    { name: 'English', lang: 'en' },
    { name: 'Português', lang: 'pt-BR' },
  ]

  it("offers 'Desativadas' and each track by name, and nothing when there is no track", () => {
    expect(captionOptions(tracks)).toEqual([
      { value: OFF, label: 'Desativadas' },
      { value: 0, label: 'English' },
      { value: 1, label: 'Português' },
    ])
    expect(captionOptions([{ label: '', language: 'es' }, {}])).toEqual([
      { value: OFF, label: 'Desativadas' },
      { value: 0, label: 'es' },
      { value: 1, label: 'Legenda 2' },
    ])
    expect(captionOptions([])).toEqual([])
  })

  it('turns on the last chosen track, else Portuguese, else the first', () => {
    expect(preferredCaption(tracks, null)).toBe(1)
    expect(preferredCaption(tracks, 0)).toBe(0)
    expect(preferredCaption(tracks, 5)).toBe(1)
    expect(preferredCaption([{ name: 'English', lang: 'en' }], null)).toBe(0)
    expect(preferredCaption([], null)).toBeNull()
  })

  it('toggles: off when on, the preferred track when off, nothing without tracks', () => {
    expect(toggleCaption(1, tracks, 1)).toBe(OFF)
    expect(toggleCaption(OFF, tracks, null)).toBe(1)
    expect(toggleCaption(OFF, tracks, 0)).toBe(0)
    expect(toggleCaption(OFF, [], null)).toBeNull()
  })
})

describe('keyboard shortcuts', () => {
  const video = document.createElement('video')
  const key = (k: string, target: Element = video, mods: { ctrlKey?: boolean; altKey?: boolean; metaKey?: boolean } = {}) =>
    shortcutFor({ key: k, target, ...mods })

  it('maps the player keys to actions', () => {
    expect(key(' ')).toEqual({ type: 'toggle-play' })
    expect(key('k')).toEqual({ type: 'toggle-play' })
    expect(key('K')).toEqual({ type: 'toggle-play' })
    expect(key('ArrowLeft')).toEqual({ type: 'seek', by: -5 })
    expect(key('ArrowRight')).toEqual({ type: 'seek', by: 5 })
    expect(key('j')).toEqual({ type: 'seek', by: -10 })
    expect(key('l')).toEqual({ type: 'seek', by: 10 })
    expect(key('ArrowUp')).toEqual({ type: 'volume', by: 0.1 })
    expect(key('ArrowDown')).toEqual({ type: 'volume', by: -0.1 })
    expect(key('m')).toEqual({ type: 'mute' })
    expect(key('f')).toEqual({ type: 'fullscreen' })
    expect(key('c')).toEqual({ type: 'captions' })
    expect(key('x')).toBeNull()
    expect(key('Enter')).toBeNull()
  })

  it('leaves keys with a modifier to the browser', () => {
    expect(key('f', video, { ctrlKey: true })).toBeNull()
    expect(key('ArrowLeft', video, { altKey: true })).toBeNull()
    expect(key('c', video, { metaKey: true })).toBeNull()
  })

  it('never fires while typing in a field or choosing in a select', () => {
    for (const tag of ['input', 'textarea', 'select']) {
      const el = document.createElement(tag)
      for (const k of [' ', 'k', 'ArrowLeft', 'm', 'f', 'c']) expect(key(k, el)).toBeNull()
    }
    const editor = document.createElement('div')
    editor.setAttribute('contenteditable', 'true')
    const inside = document.createElement('span')
    editor.append(inside)
    expect(key('k', inside)).toBeNull()
  })

  it('leaves Space to a focused button (it presses it) but answers the letters there', () => {
    const button = document.createElement('button')
    expect(key(' ', button)).toBeNull()
    expect(key('m', button)).toEqual({ type: 'mute' })
  })

  it('keeps jumps inside the media and the volume in 0..1', () => {
    expect(seekTarget(3, -5, 600)).toBe(0)
    expect(seekTarget(598, 5, 600)).toBe(600)
    expect(seekTarget(100, 10, Number.NaN)).toBe(110)
    expect(volumeAfter(0.95, 0.1)).toBe(1)
    expect(volumeAfter(0.05, -0.1)).toBe(0)
    let v = 1
    for (let i = 0; i < 3; i++) v = volumeAfter(v, -0.1)
    expect(v).toBe(0.7)
  })
})
