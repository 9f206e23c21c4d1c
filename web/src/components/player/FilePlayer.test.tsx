import { act, fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { VideoPlayer } from './VideoPlayer'

// A stand-in for hls.js with its event API: the test plays the manifest's
// renditions and subtitle tracks in, and reads back what the player set.
const hls = vi.hoisted(() => ({
  instances: [] as Array<{
    config: Record<string, unknown>
    handlers: Map<string, (event: string, data: unknown) => void>
    emit: (event: string, data?: unknown) => void
    levels: Array<{ height: number; width: number; bitrate: number; name: string }>
    currentLevel: number
    subtitleTrack: number
    subtitleDisplay: boolean
    source?: string
    destroyed: boolean
  }>,
}))
// Counts the player's requests for hls.js: the decision to load it is taken
// while the player mounts, so a player that never asks never loads it.
const loader = vi.hoisted(() => ({ calls: 0 }))
vi.mock('./hls', async (importOriginal) => {
  const real = await importOriginal<typeof import('./hls')>()
  return {
    loadHls: () => {
      loader.calls++
      return real.loadHls()
    },
  }
})
vi.mock('hls.js', () => {
  const Events = {
    ERROR: 'hlsError',
    MANIFEST_PARSED: 'hlsManifestParsed',
    LEVELS_UPDATED: 'hlsLevelsUpdated',
    LEVEL_SWITCHED: 'hlsLevelSwitched',
    SUBTITLE_TRACKS_UPDATED: 'hlsSubtitleTracksUpdated',
    SUBTITLE_TRACK_SWITCH: 'hlsSubtitleTrackSwitch',
  }
  return {
    default: class FakeHls {
      static isSupported = () => true
      static Events = Events
      handlers = new Map<string, (event: string, data: unknown) => void>()
      levels: Array<{ height: number; width: number; bitrate: number; name: string }> = []
      currentLevel = -1
      subtitleTrack = -1
      subtitleDisplay = true
      source?: string
      destroyed = false
      constructor(public config: Record<string, unknown>) {
        hls.instances.push(this)
      }
      on(event: string, fn: (event: string, data: unknown) => void) {
        this.handlers.set(event, fn)
      }
      emit(event: string, data: unknown = {}) {
        this.handlers.get(event)?.(event, data)
      }
      loadSource(url: string) {
        this.source = url
      }
      attachMedia() {}
      destroy() {
        this.destroyed = true
      }
    },
  }
})

const stream = { source: 'upload' as const, url: '/uploads/media/a1/tok/hls/master.m3u8', embed_url: null, hls: true }

async function playerWithManifest(subtitles: Array<{ name: string; lang: string }>) {
  const view = render(<VideoPlayer video={stream} title="Sutura contínua" />)
  await vi.waitFor(() => expect(hls.instances).toHaveLength(1))
  const h = hls.instances[0]!
  h.levels = [
    { height: 360, width: 640, bitrate: 800_000, name: '360p' },
    { height: 720, width: 1280, bitrate: 2_800_000, name: '720p' },
    { height: 1080, width: 1920, bitrate: 5_000_000, name: '1080p' },
  ]
  act(() => {
    h.emit('hlsManifestParsed')
    h.emit('hlsLevelSwitched', { level: 1 })
    h.emit('hlsSubtitleTracksUpdated', { subtitleTracks: subtitles })
  })
  return { view, h, video: screen.getByLabelText('Sutura contínua', { selector: 'video' }) as HTMLVideoElement }
}

beforeEach(() => {
  hls.instances.length = 0
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('VideoPlayer on an HLS stream (hls.js)', () => {
  it('loads hls.js with its worker from our origin and capped to the player size', async () => {
    const { h } = await playerWithManifest([])
    expect(h.source).toBe(stream.url)
    expect(h.config.workerPath).toMatch(/hls\.worker.*\.js/)
    expect(h.config.capLevelToPlayerSize).toBe(true)
  })

  it("offers 'Automática' and each rendition under 'Qualidade', and switches hls.js's level", async () => {
    const { h } = await playerWithManifest([])
    const quality = screen.getByLabelText('Qualidade') as HTMLSelectElement
    expect(within(quality).getAllByRole('option').map((o) => o.textContent)).toEqual(['Automática (720p)', '1080p', '720p', '360p'])
    expect(quality.value).toBe('-1')
    await userEvent.selectOptions(quality, '1080p')
    expect(h.currentLevel).toBe(2)
    await userEvent.selectOptions(quality, 'Automática (720p)')
    expect(h.currentLevel).toBe(-1)
  })

  it("shows no 'Legendas' control when the stream has no subtitle track", async () => {
    await playerWithManifest([])
    expect(screen.queryByLabelText('Legendas')).toBeNull()
  })

  it("chooses captions under 'Legendas' and toggles them with C", async () => {
    const { h, video } = await playerWithManifest([
      { name: 'English', lang: 'en' },
      { name: 'Português', lang: 'pt-BR' },
    ])
    const captions = screen.getByLabelText('Legendas') as HTMLSelectElement
    expect(within(captions).getAllByRole('option').map((o) => o.textContent)).toEqual(['Desativadas', 'English', 'Português'])
    expect(captions.value).toBe('-1')

    // C turns on Portuguese first, and off again.
    fireEvent.keyDown(video, { key: 'c' })
    expect(h.subtitleTrack).toBe(1)
    expect(h.subtitleDisplay).toBe(true)
    expect(captions.value).toBe('1')
    fireEvent.keyDown(video, { key: 'c' })
    expect(h.subtitleTrack).toBe(-1)
    expect(captions.value).toBe('-1')

    // The track chosen in the menu is the one C brings back.
    await userEvent.selectOptions(captions, 'English')
    expect(h.subtitleTrack).toBe(0)
    fireEvent.keyDown(video, { key: 'c' })
    fireEvent.keyDown(video, { key: 'c' })
    expect(h.subtitleTrack).toBe(0)
    // hls.js's own switch (a DEFAULT=YES track) shows in the menu.
    act(() => h.emit('hlsSubtitleTrackSwitch', { id: 1 }))
    expect(captions.value).toBe('1')
  })

  it('sets the speed, and answers the shortcuts on the video but not while choosing in a select', async () => {
    const { video } = await playerWithManifest([])
    Object.defineProperty(video, 'duration', { configurable: true, get: () => 600 })
    await userEvent.selectOptions(screen.getByLabelText('Velocidade'), '1,25×')
    expect(video.playbackRate).toBe(1.25)
    expect(video.defaultPlaybackRate).toBe(1.25)

    video.currentTime = 100
    fireEvent.keyDown(video, { key: 'l' })
    expect(video.currentTime).toBe(110)
    fireEvent.keyDown(video, { key: 'j' })
    fireEvent.keyDown(video, { key: 'ArrowLeft' })
    expect(video.currentTime).toBe(95)
    video.volume = 0.5
    fireEvent.keyDown(video, { key: 'ArrowDown' })
    expect(video.volume).toBe(0.4)
    video.muted = true
    fireEvent.keyDown(video, { key: 'ArrowUp' })
    expect(video.volume).toBe(0.5)
    expect(video.muted).toBe(false)
    fireEvent.keyDown(video, { key: 'm' })
    expect(video.muted).toBe(true)
    const play = vi.spyOn(video, 'play').mockImplementation(() => Promise.resolve())
    fireEvent.keyDown(video, { key: ' ' })
    expect(play).toHaveBeenCalledTimes(1)

    fireEvent.keyDown(screen.getByLabelText('Qualidade'), { key: 'ArrowRight' })
    fireEvent.keyDown(screen.getByLabelText('Velocidade'), { key: 'k' })
    expect(video.currentTime).toBe(95)
    expect(play).toHaveBeenCalledTimes(1)
  })

  it("documents the shortcuts behind 'Atalhos do teclado'", async () => {
    await playerWithManifest([])
    const button = screen.getByRole('button', { name: 'Atalhos do teclado' })
    expect(button).toHaveAttribute('aria-expanded', 'false')
    expect(screen.getByText('Ativar ou desativar as legendas')).not.toBeVisible()
    await userEvent.click(button)
    expect(button).toHaveAttribute('aria-expanded', 'true')
    expect(screen.getByText('Ativar ou desativar as legendas')).toBeVisible()
    expect(screen.getByText('Voltar ou avançar 10 segundos')).toBeVisible()
  })

  it('prefers hls.js to the native HLS of a browser with Media Source Extensions (its renditions make the quality choice)', async () => {
    vi.stubGlobal('MediaSource', { isTypeSupported: (type: string) => type.startsWith('video/mp4') })
    vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type) => (type === 'application/vnd.apple.mpegurl' ? 'maybe' : ''))
    const { video } = await playerWithManifest([])
    expect(video.getAttribute('src')).toBeNull()
    expect(screen.getByLabelText('Qualidade')).toBeInTheDocument()
  })

  it("asks the page for a new address when the stream's signed one expired (403), and resumes where it was", async () => {
    const signed = (token: string) => ({ source: 'upload' as const, url: `/api/media/stream/${token}/master.m3u8`, embed_url: null, hls: true })
    const onExpired = vi.fn()
    const view = render(<VideoPlayer video={signed('antigo')} title="Sutura contínua" onExpired={onExpired} />)
    await vi.waitFor(() => expect(hls.instances).toHaveLength(1))
    const first = hls.instances[0]!
    const video = screen.getByLabelText('Sutura contínua', { selector: 'video' }) as HTMLVideoElement
    video.currentTime = 42
    fireEvent.timeUpdate(video)
    // The page read again (a new signed address of the same stream) does not restart it.
    view.rerender(<VideoPlayer video={signed('relido')} title="Sutura contínua" onExpired={onExpired} />)
    expect(hls.instances).toHaveLength(1)
    expect(first.destroyed).toBe(false)
    act(() => first.emit('hlsError', { fatal: true, response: { code: 403 } }))
    expect(onExpired).toHaveBeenCalledTimes(1)
    expect(screen.queryByRole('alert')).toBeNull()

    // The newest address the page has plays at once, while the page reads again.
    await vi.waitFor(() => expect(hls.instances).toHaveLength(2))
    expect(first.destroyed).toBe(true)
    expect(hls.instances[1]!.source).toBe('/api/media/stream/relido/master.m3u8')
    const again = screen.getByLabelText('Sutura contínua', { selector: 'video' }) as HTMLVideoElement
    Object.defineProperty(again, 'duration', { configurable: true, get: () => 600 })
    fireEvent.loadedMetadata(again)
    expect(again.currentTime).toBe(42)
    view.rerender(<VideoPlayer video={signed('novo')} title="Sutura contínua" onExpired={onExpired} />)
    expect(hls.instances).toHaveLength(2)

    // Any other failure is shown.
    act(() => hls.instances[1]!.emit('hlsError', { fatal: true, response: { code: 500 } }))
    expect(onExpired).toHaveBeenCalledTimes(1)
    expect(screen.getByRole('alert')).toHaveTextContent('Não foi possível reproduzir este vídeo.')
  })

  it('destroys hls.js when the player closes', async () => {
    const { view, h } = await playerWithManifest([])
    view.unmount()
    expect(h.destroyed).toBe(true)
  })
})

describe('VideoPlayer on a file', () => {
  it('offers no quality choice and never loads hls.js', async () => {
    loader.calls = 0
    render(<VideoPlayer video={{ source: 'stream', url: '/uploads/aula.mp4', embed_url: null, hls: false }} title="Aula" />)
    expect(screen.getByLabelText('Aula', { selector: 'video' })).toHaveAttribute('src', '/uploads/aula.mp4')
    expect(screen.getByLabelText('Velocidade')).toBeInTheDocument()
    expect(screen.queryByLabelText('Qualidade')).toBeNull()
    expect(screen.queryByLabelText('Legendas')).toBeNull()
    expect(loader.calls).toBe(0)
    expect(hls.instances).toHaveLength(0)
  })
})
