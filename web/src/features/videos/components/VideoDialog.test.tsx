import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { dismissToast } from '@/components/ui/toast'
import { installBrowserGaps, renderRoutes } from '@/test/renderRoutes'
import { deferred, failWith, fakeVideosApi, video, type Call } from '../test/fakeVideosApi'
import VideosPage from '../pages/VideosPage'

const renderAt = (id: string) => renderRoutes([{ path: '/conteudos-exclusivos', element: <VideosPage /> }], `/conteudos-exclusivos#${id}`, { noRetry: true })

const posts = (calls: Call[], suffix: string) => calls.filter((c) => c.method !== 'GET' && c.path.endsWith(suffix))

/** Drives a <video> the way a browser playing it would. */
function driveVideo(el: HTMLVideoElement, duration: number) {
  let playing = false
  Object.defineProperty(el, 'paused', { configurable: true, get: () => !playing })
  Object.defineProperty(el, 'duration', { configurable: true, value: duration })
  fireEvent(el, new Event('loadedmetadata'))
  return {
    play(from: number, to: number, step = 0.25) {
      playing = true
      for (let t = from; t <= to + 1e-9; t += step) {
        el.currentTime = t
        fireEvent.timeUpdate(el)
      }
    },
    pause() {
      playing = false
      fireEvent.pause(el)
    },
  }
}

async function openDialog(title: string) {
  const dialog = await screen.findByRole('dialog', { name: title })
  return dialog
}

const likeButton = (dialog: HTMLElement) => within(dialog).getByRole('button', { name: /^Curtir vídeo/ })

beforeEach(() => installBrowserGaps())
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  dismissToast()
})

describe('VideoDialog', () => {
  it('ignores a second like click while the first is in flight, then settles on the answer', async () => {
    const gate = deferred()
    const api = fakeVideosApi({ videos: [video('v1', { title: 'Sutura', likes: 4 })] }, { hold: (c) => (c.path.endsWith('/curtida') ? gate.promise : undefined) })
    renderAt('v1')
    const dialog = await openDialog('Sutura')
    const like = await waitFor(() => likeButton(dialog))
    expect(like).toHaveAccessibleName('Curtir vídeo, 4 curtidas')
    expect(like).toHaveAttribute('aria-pressed', 'false')
    await userEvent.click(like)
    await userEvent.click(like)
    // Shown at once, one request.
    expect(likeButton(dialog)).toHaveAccessibleName('Curtir vídeo, 5 curtidas')
    expect(likeButton(dialog)).toHaveAttribute('aria-pressed', 'true')
    expect(posts(api.calls, '/curtida')).toHaveLength(1)
    gate.resolve()
    await waitFor(() => expect(likeButton(dialog)).not.toHaveAttribute('aria-disabled'))
    expect(likeButton(dialog)).toHaveAccessibleName('Curtir vídeo, 5 curtidas')
    expect(api.state.videos[0]!.likes).toBe(5)
    // Unlike.
    await userEvent.click(likeButton(dialog))
    await waitFor(() => expect(likeButton(dialog)).toHaveAttribute('aria-pressed', 'false'))
    expect(likeButton(dialog)).toHaveAccessibleName('Curtir vídeo, 4 curtidas')
  })

  it("never shows a count below 0, and rolls back with 'Erro ao atualizar curtida' on failure", async () => {
    // A stale liked state with a count already at 0: unliking must not show -1.
    const gate = deferred()
    fakeVideosApi(
      { videos: [video('v1', { title: 'Sutura', likes: 0, user_liked: true })] },
      { hold: (c) => (c.path.endsWith('/curtida') ? gate.promise : undefined), fail: (c) => c.path.endsWith('/curtida') && failWith(500) },
    )
    renderAt('v1')
    const dialog = await openDialog('Sutura')
    const like = await waitFor(() => likeButton(dialog))
    await userEvent.click(like)
    expect(likeButton(dialog)).toHaveAccessibleName('Curtir vídeo, 0 curtidas')
    expect(likeButton(dialog)).toHaveAttribute('aria-pressed', 'false')
    gate.resolve()
    expect(await screen.findAllByText('Erro ao atualizar curtida')).not.toHaveLength(0)
    await waitFor(() => expect(likeButton(dialog)).toHaveAttribute('aria-pressed', 'true'))
    expect(likeButton(dialog)).toHaveAccessibleName('Curtir vídeo, 0 curtidas')
  })

  it("toggles favorite, and rolls back with 'Erro ao atualizar favorito' on failure", async () => {
    let failing = false
    const api = fakeVideosApi({ videos: [video('v1', { title: 'Sutura' })] }, { fail: (c) => failing && c.path.endsWith('/favorito') && failWith(500) })
    renderAt('v1')
    const dialog = await openDialog('Sutura')
    const fav = await within(dialog).findByRole('button', { name: 'Favoritar' })
    expect(fav).toHaveAttribute('aria-pressed', 'false')
    await userEvent.click(fav)
    await waitFor(() => expect(api.state.videos[0]!.is_favorite).toBe(true))
    expect(within(dialog).getByRole('button', { name: 'Favoritar' })).toHaveAttribute('aria-pressed', 'true')
    // The card behind follows.
    expect(screen.getByRole('button', { name: 'Favoritar Sutura', hidden: true })).toHaveAttribute('aria-pressed', 'true')

    failing = true
    await userEvent.click(within(dialog).getByRole('button', { name: 'Favoritar' }))
    expect(await screen.findAllByText('Erro ao atualizar favorito')).not.toHaveLength(0)
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Favoritar' })).toHaveAttribute('aria-pressed', 'true'))
  })

  it("marks completed and unmarks ('Desmarcar'), with 'Erro ao atualizar status de conclusão' on failure", async () => {
    let failing = false
    const api = fakeVideosApi({ videos: [video('v1', { title: 'Sutura' })] }, { fail: (c) => failing && c.path.endsWith('/concluido') && failWith(500) })
    renderAt('v1')
    const dialog = await openDialog('Sutura')
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Marcar como concluído' }))
    const unmark = await within(dialog).findByRole('button', { name: 'Desmarcar como concluído' })
    expect(posts(api.calls, '/concluido').map((c) => c.body)).toEqual([{ completed: true }])
    expect(api.state.videos[0]!.completed_at).not.toBeNull()
    expect(within(dialog).getByText('Concluído')).toBeInTheDocument()

    await userEvent.click(unmark)
    await within(dialog).findByRole('button', { name: 'Marcar como concluído' })
    expect(posts(api.calls, '/concluido').map((c) => c.body)).toEqual([{ completed: true }, { completed: false }])
    expect(api.state.videos[0]!.completed_at).toBeNull()

    failing = true
    await userEvent.click(within(dialog).getByRole('button', { name: 'Marcar como concluído' }))
    expect(await screen.findAllByText('Erro ao atualizar status de conclusão')).not.toHaveLength(0)
    expect(within(dialog).getByRole('button', { name: 'Marcar como concluído' })).toBeInTheDocument()
  })

  it('records the view once, after 30 s of playback (seeks do not count)', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const api = fakeVideosApi({ videos: [video('v1', { title: 'Sutura', views: 7 })] })
    renderAt('v1')
    const dialog = await openDialog('Sutura')
    const el = (await within(dialog).findByLabelText('Sutura', { selector: 'video' })) as HTMLVideoElement
    const player = driveVideo(el, 600)
    player.play(0, 20)
    // A jump to 300 s plays nothing.
    player.play(300, 309)
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(posts(api.calls, '/visualizacao')).toHaveLength(0)
    player.play(309, 311)
    await waitFor(() => expect(posts(api.calls, '/visualizacao')).toHaveLength(1))
    player.play(311, 400)
    await act(() => vi.advanceTimersByTimeAsync(0))
    expect(posts(api.calls, '/visualizacao')).toHaveLength(1)
    expect(await within(dialog).findByText('8 visualizações')).toBeInTheDocument()
  })

  it('resumes from resume_at, saves every 10 s and on close', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const api = fakeVideosApi({ videos: [video('v1', { title: 'Sutura', position_seconds: 125, resume_at: 125 })] })
    const { router } = renderAt('v1')
    const dialog = await openDialog('Sutura')
    const el = (await within(dialog).findByLabelText('Sutura', { selector: 'video' })) as HTMLVideoElement
    expect(el.getAttribute('src')).toBe('/media/v1.mp4')
    const player = driveVideo(el, 600)
    expect(el.currentTime).toBe(125)
    player.play(125, 130)
    expect(posts(api.calls, '/progresso')).toHaveLength(0)
    await act(() => vi.advanceTimersByTimeAsync(10_000))
    await waitFor(() => expect(posts(api.calls, '/progresso')).toHaveLength(1))
    expect(posts(api.calls, '/progresso')[0]!.body).toEqual({ position_seconds: 130, duration_seconds: 600, watched: [[125, 130]] })
    // Nothing new: nothing sent.
    await act(() => vi.advanceTimersByTimeAsync(10_000))
    expect(posts(api.calls, '/progresso')).toHaveLength(1)

    player.play(130, 133)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Fechar' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await waitFor(() => expect(posts(api.calls, '/progresso')).toHaveLength(2))
    expect(posts(api.calls, '/progresso')[1]!.body).toEqual({ position_seconds: 133, duration_seconds: 600, watched: [[130, 133]] })
    expect(router.state.location.hash).toBe('')
  })

  it('saves on pagehide', async () => {
    const api = fakeVideosApi({ videos: [video('v1', { title: 'Sutura' })] })
    renderAt('v1')
    const dialog = await openDialog('Sutura')
    const el = (await within(dialog).findByLabelText('Sutura', { selector: 'video' })) as HTMLVideoElement
    driveVideo(el, 600).play(0, 4)
    window.dispatchEvent(new Event('pagehide'))
    await waitFor(() => expect(posts(api.calls, '/progresso')).toHaveLength(1))
    expect(posts(api.calls, '/progresso')[0]!.body).toEqual({ position_seconds: 4, duration_seconds: 600, watched: [[0, 4]] })
  })

  it('sets the playback speed and answers the keyboard shortcuts on a stream', async () => {
    fakeVideosApi({ videos: [video('v1', { title: 'Sutura' })] })
    renderAt('v1')
    const dialog = await openDialog('Sutura')
    const el = (await within(dialog).findByLabelText('Sutura', { selector: 'video' })) as HTMLVideoElement
    driveVideo(el, 600)
    await userEvent.selectOptions(within(dialog).getByLabelText('Velocidade'), '1,5×')
    expect(el.playbackRate).toBe(1.5)
    el.currentTime = 100
    fireEvent.keyDown(el, { key: 'ArrowRight' })
    expect(el.currentTime).toBe(105)
    fireEvent.keyDown(el, { key: 'ArrowLeft' })
    fireEvent.keyDown(el, { key: 'ArrowLeft' })
    expect(el.currentTime).toBe(95)
    fireEvent.keyDown(el, { key: 'm' })
    expect(el.muted).toBe(true)
    const pause = vi.spyOn(el, 'pause').mockImplementation(() => undefined)
    Object.defineProperty(el, 'paused', { configurable: true, get: () => false })
    fireEvent.keyDown(el, { key: 'k' })
    expect(pause).toHaveBeenCalledTimes(1)
    // Not while on a control that uses the key.
    fireEvent.keyDown(within(dialog).getByLabelText('Velocidade'), { key: 'ArrowRight' })
    expect(el.currentTime).toBe(95)
  })

  it("embeds YouTube without the speed select (YouTube brings its own)", async () => {
    fakeVideosApi({
      videos: [
        video('v1', {
          title: 'Sutura',
          video_source: 'youtube',
          video: { source: 'youtube', url: 'https://www.youtube.com/watch?v=abcdefghijk', embed_url: 'https://www.youtube-nocookie.com/embed/abcdefghijk', hls: false },
          resume_at: 42,
        }),
      ],
    })
    renderAt('v1')
    const dialog = await openDialog('Sutura')
    const frame = await within(dialog).findByTitle('Sutura')
    const src = new URL(frame.getAttribute('src')!)
    expect(src.origin + src.pathname).toBe('https://www.youtube-nocookie.com/embed/abcdefghijk')
    expect(src.searchParams.get('start')).toBe('42')
    expect(within(dialog).queryByLabelText('Velocidade')).toBeNull()
  })

  it("says 'Vídeo não encontrado.' for an unknown id", async () => {
    fakeVideosApi({ videos: [] })
    renderAt('nope')
    const dialog = await screen.findByRole('dialog', { name: 'Vídeo' })
    expect(await within(dialog).findByText('Vídeo não encontrado.')).toBeInTheDocument()
  })
})
