import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { dismissToast } from '@/components/ui/toast'
import { course, fakeCoursesApi, installBrowserGaps, lesson, renderRoutes, type Call, type FakeCourse } from '../test/fakeCoursesApi'
import LessonPage from './LessonPage'

// hls.js is loaded with a dynamic import on this page only; the fake records what the player asks of it.
const hls = vi.hoisted(() => ({ instances: [] as Array<{ source?: string; media?: unknown }>, loads: 0 }))
// The player decides while it mounts whether to ask for hls.js: counted here.
vi.mock('@/components/player/hls', async (importOriginal) => {
  const real = await importOriginal<typeof import('@/components/player/hls')>()
  return {
    loadHls: () => {
      hls.loads++
      return real.loadHls()
    },
  }
})
vi.mock('hls.js', () => ({
  default: class FakeHls {
    static isSupported() {
      return true
    }
    static Events = { ERROR: 'hlsError' }
    source?: string
    media?: unknown
    constructor() {
      hls.instances.push(this)
    }
    on() {}
    loadSource(url: string) {
      this.source = url
    }
    attachMedia(el: unknown) {
      this.media = el
    }
    destroy() {}
  },
}))

function renderPage(path = '/cursos/c1/aula/l2', options: { noRetry?: boolean } = {}) {
  return renderRoutes(
    [
      { path: '/cursos/:id/aula/:lessonId', element: <LessonPage /> },
      { path: '/cursos/:id', element: <p>Página do curso</p> },
      { path: '/cursos/:id/certificado', element: <p>Certificado</p> },
      { path: '/pricing', element: <p>Planos</p> },
    ],
    path,
    options,
  )
}

function theCourse(overrides: Partial<FakeCourse> = {}): FakeCourse {
  return course('c1', {
    title: 'Dermatologia veterinária',
    duration: '3h',
    duration_minutes: 180,
    is_enrolled: true,
    modules: [
      {
        id: 'm1',
        title: 'Fundamentos',
        description: '',
        order: 1,
        duration: '',
        duration_seconds: 0,
        lessons: [
          lesson('l1', { title: 'Pele e anexos', is_completed: true }),
          lesson('l2', {
            title: 'Dermatite atópica',
            order: 2,
            position_seconds: 125,
            body: 'Resumo da **aula**.',
            support_material: { url: '/media/atopia.pdf', title: 'Apostila de atopia', type: 'pdf' },
            materials: [{ url: '/media/tabela.pdf', title: 'Tabela de corticoides', type: 'pdf' }],
            external_link: { url: 'https://example.org/diretriz', title: 'Diretriz internacional' },
          }),
        ],
      },
      { id: 'm2', title: 'Casos clínicos', description: '', order: 2, duration: '', duration_seconds: 0, lessons: [lesson('l3', { title: 'Otite externa' })] },
    ],
    ...overrides,
  })
}

const puts = (calls: Call[]) => calls.filter((c) => c.method === 'PUT' && c.path.endsWith('/progresso'))

/** Drives a <video> the way a browser playing it would. */
function driveVideo(video: HTMLVideoElement, duration: number) {
  let playing = false
  Object.defineProperty(video, 'paused', { configurable: true, get: () => !playing })
  Object.defineProperty(video, 'duration', { configurable: true, value: duration })
  fireEvent(video, new Event('loadedmetadata'))
  return {
    play(from: number, to: number, step = 0.25) {
      playing = true
      for (let t = from; t <= to + 1e-9; t += step) {
        video.currentTime = t
        fireEvent.timeUpdate(video)
      }
    },
    pause() {
      playing = false
      fireEvent.pause(video)
    },
    end() {
      playing = false
      fireEvent.ended(video)
    },
  }
}

beforeEach(() => {
  installBrowserGaps()
  hls.instances.length = 0
  hls.loads = 0
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
  dismissToast()
})

describe('LessonPage', () => {
  it('resumes at the saved position and saves every 10 s only when something changed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const api = fakeCoursesApi({ courses: [theCourse()] })
    renderPage()
    const video = (await screen.findByLabelText('Dermatite atópica')) as HTMLVideoElement
    expect(video.getAttribute('src')).toBe('/media/l2.mp4')
    const player = driveVideo(video, 600)
    expect(video.currentTime).toBe(125)

    player.play(125, 130)
    expect(puts(api.calls)).toHaveLength(0)
    await act(() => vi.advanceTimersByTimeAsync(10_000))
    await waitFor(() => expect(puts(api.calls)).toHaveLength(1))
    expect(puts(api.calls)[0]!.body).toEqual({ position_seconds: 130, duration_seconds: 600, watched: [[125, 130]] })

    // Ten seconds with nothing new: nothing sent.
    await act(() => vi.advanceTimersByTimeAsync(10_000))
    expect(puts(api.calls)).toHaveLength(1)

    // Playback goes on: the next report carries only the new span, at the next tick.
    player.play(130.25, 133)
    await act(() => vi.advanceTimersByTimeAsync(9_000))
    expect(puts(api.calls)).toHaveLength(1)
    await act(() => vi.advanceTimersByTimeAsync(1_000))
    await waitFor(() => expect(puts(api.calls)).toHaveLength(2))
    expect(puts(api.calls)[1]!.body).toEqual({ position_seconds: 133, duration_seconds: 600, watched: [[130, 133]] })
    expect(api.state.courses[0]!.modules[0]!.lessons[1]!.position_seconds).toBe(133)

    // A seek plays nothing: only the position moves.
    fireEvent.seeking(video)
    player.play(400, 401)
    await act(() => vi.advanceTimersByTimeAsync(10_000))
    await waitFor(() => expect(puts(api.calls)).toHaveLength(3))
    expect(puts(api.calls)[2]!.body).toEqual({ position_seconds: 401, duration_seconds: 600, watched: [[400, 401]] })
  })

  it('saves on pause and, with a keepalive request, when the page is hidden or left', async () => {
    const api = fakeCoursesApi({ courses: [theCourse()] })
    renderPage()
    const video = (await screen.findByLabelText('Dermatite atópica')) as HTMLVideoElement
    const player = driveVideo(video, 600)
    player.play(125, 140)
    player.pause()
    await waitFor(() => expect(puts(api.calls)).toHaveLength(1))
    expect(puts(api.calls)[0]!.body).toMatchObject({ position_seconds: 140, watched: [[125, 140]] })
    expect(puts(api.calls)[0]!.init?.keepalive).toBeFalsy()

    player.play(140.25, 150)
    fireEvent(window, new Event('pagehide'))
    await waitFor(() => expect(puts(api.calls)).toHaveLength(2))
    // After a pause the span starts at the first update of the new playback (tenths of a second).
    expect(puts(api.calls)[1]!.body).toMatchObject({ position_seconds: 150, watched: [[140.3, 150]] })
    expect(puts(api.calls)[1]!.init?.keepalive).toBe(true)
    expect(puts(api.calls)[1]!.init?.headers).toMatchObject({ 'X-CSRF-Token': 'tok123' })

    player.play(150.25, 155)
    vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden')
    fireEvent(document, new Event('visibilitychange'))
    await waitFor(() => expect(puts(api.calls)).toHaveLength(3))
    expect(puts(api.calls)[2]!.init?.keepalive).toBe(true)
    expect(puts(api.calls)[2]!.body).toMatchObject({ position_seconds: 155 })
  })

  it('saves with keepalive when leaving the lesson inside the app', async () => {
    const api = fakeCoursesApi({ courses: [theCourse()] })
    const { router } = renderPage()
    const video = (await screen.findByLabelText('Dermatite atópica')) as HTMLVideoElement
    driveVideo(video, 600).play(125, 128)
    await userEvent.click(screen.getByRole('link', { name: /Próxima aula/ }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Otite externa' })).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/cursos/c1/aula/l3')
    expect(puts(api.calls)).toHaveLength(1)
    expect(puts(api.calls)[0]!.path).toBe('/api/cursos/c1/aulas/l2/progresso')
    expect(puts(api.calls)[0]!.init?.keepalive).toBe(true)
  })

  it('completes the course by watching: the completion screen with +200 VetCoins and the certificate', async () => {
    const c = theCourse()
    c.modules[1]!.lessons[0]!.is_completed = true
    c.modules[0]!.lessons[1]!.position_seconds = 0
    const api = fakeCoursesApi({ courses: [c] })
    renderPage()
    const video = (await screen.findByLabelText('Dermatite atópica')) as HTMLVideoElement
    const player = driveVideo(video, 100)
    // Scrubbing to the end plays nothing and completes nothing.
    player.play(99, 100)
    player.end()
    await waitFor(() => expect(puts(api.calls)).toHaveLength(1))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(screen.getByRole('button', { name: /Marcar como concluída/ })).toBeInTheDocument()

    player.play(0, 95, 0.5)
    player.end()
    const dialog = await screen.findByRole('dialog', { name: 'Parabéns! Você concluiu o curso!' })
    expect(dialog).toHaveTextContent('+200 VetCoins')
    expect(within(dialog).getByRole('link', { name: 'Ver certificado' })).toHaveAttribute('href', '/cursos/c1/certificado')
    expect(screen.getByRole('button', { name: /Aula concluída/ })).toBeDisabled()
    expect(screen.getAllByRole('progressbar', { name: 'Progresso no curso' })[0]).toHaveAttribute('aria-valuenow', '100')
    expect(api.state.points).toBe(200)
  })

  it("'Marcar como concluída' ticks the lesson; the last one opens the completion screen", async () => {
    const c = theCourse()
    c.modules[1]!.lessons[0]!.is_completed = true
    const api = fakeCoursesApi({ courses: [c] })
    renderPage()
    await screen.findByRole('heading', { level: 1, name: 'Dermatite atópica' })
    const list = screen.getByRole('list', { name: 'Aulas do módulo Fundamentos' })
    expect(within(list).getAllByRole('img', { name: 'Concluída' })).toHaveLength(1)
    expect(within(list).getByRole('link', { name: /Dermatite atópica/ })).toHaveAttribute('aria-current', 'page')
    await userEvent.click(screen.getByRole('button', { name: /Marcar como concluída/ }))
    const dialog = await screen.findByRole('dialog', { name: 'Parabéns! Você concluiu o curso!' })
    expect(dialog).toHaveTextContent('+200 VetCoins')
    await waitFor(() => expect(within(list).getAllByRole('img', { name: 'Concluída' })).toHaveLength(2))
    expect(api.calls.filter((x) => x.method === 'POST' && x.path === '/api/cursos/c1/aulas/l2/concluir')).toHaveLength(1)
    await userEvent.click(within(dialog).getByRole('button', { name: 'Fechar' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('marks a lesson complete without a completion screen while the course goes on', async () => {
    fakeCoursesApi({ courses: [theCourse()] })
    renderPage()
    await userEvent.click(await screen.findByRole('button', { name: /Marcar como concluída/ }))
    expect(await screen.findByRole('button', { name: /Aula concluída/ })).toBeDisabled()
    expect(screen.queryByRole('dialog')).toBeNull()
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Progresso no curso' })).toHaveAttribute('aria-valuenow', '66'))
  })

  it('shows previous/next, the lesson text, materials and the external link, and likes', async () => {
    const api = fakeCoursesApi({ courses: [theCourse()] })
    renderPage()
    await screen.findByRole('heading', { level: 1, name: 'Dermatite atópica' })
    const nav = screen.getByRole('navigation', { name: 'Navegação entre aulas' })
    expect(within(nav).getByRole('link', { name: 'Aula anterior: Pele e anexos' })).toHaveAttribute('href', '/cursos/c1/aula/l1')
    expect(within(nav).getByRole('link', { name: 'Próxima aula: Otite externa' })).toHaveAttribute('href', '/cursos/c1/aula/l3')
    expect(screen.getByRole('region', { name: 'Sobre a aula' }).querySelector('strong')).toHaveTextContent('aula')
    const materials = screen.getByRole('region', { name: 'Materiais da aula' })
    expect(within(materials).getByRole('link', { name: /Apostila de atopia/ })).toHaveAttribute('href', '/media/atopia.pdf')
    expect(within(materials).getByRole('link', { name: /Tabela de corticoides/ })).toHaveAttribute('href', '/media/tabela.pdf')
    const ext = within(materials).getByRole('link', { name: /Diretriz internacional/ })
    expect(ext).toHaveAttribute('href', 'https://example.org/diretriz')
    expect(ext).toHaveAttribute('rel', 'noopener noreferrer')

    // The accessible name holds the visible count.
    const like = screen.getByRole('button', { name: 'Curtir aula, 0 curtidas' })
    expect(like).toHaveAttribute('aria-pressed', 'false')
    await userEvent.click(like)
    expect(like).toHaveAttribute('aria-pressed', 'true')
    expect(like).toHaveAccessibleName('Curtir aula, 1 curtida')
    await waitFor(() => expect(api.calls.find((x) => x.path === '/api/content/cursos-aulas/l2/reaction')?.body).toEqual({ value: 'like' }))
  })

  it('plays HLS through hls.js, loaded on demand, where the browser has no native HLS', async () => {
    const c = theCourse()
    c.modules[0]!.lessons[1]!.video = { source: 'upload', url: '/media/l2/master.m3u8', embed_url: null, hls: true }
    fakeCoursesApi({ courses: [c] })
    renderPage()
    const video = (await screen.findByLabelText('Dermatite atópica')) as HTMLVideoElement
    await waitFor(() => expect(hls.instances).toHaveLength(1))
    expect(hls.instances[0]!.source).toBe('/media/l2/master.m3u8')
    expect(hls.instances[0]!.media).toBe(video)
    expect(video.getAttribute('src')).toBeNull()
  })

  it('uses native HLS where the browser plays it (Safari) and never loads hls.js', async () => {
    vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type) => (type === 'application/vnd.apple.mpegurl' ? 'maybe' : ''))
    const c = theCourse()
    c.modules[0]!.lessons[1]!.video = { source: 'upload', url: '/media/l2/master.m3u8', embed_url: null, hls: true }
    fakeCoursesApi({ courses: [c] })
    renderPage()
    const video = (await screen.findByLabelText('Dermatite atópica')) as HTMLVideoElement
    // The source is set by the same mount that would have asked for hls.js.
    expect(video.getAttribute('src')).toBe('/media/l2/master.m3u8')
    expect(hls.loads).toBe(0)
    expect(hls.instances).toHaveLength(0)
  })

  it('embeds YouTube (youtube-nocookie) at the saved position and tracks it through postMessage', async () => {
    const c = theCourse()
    c.modules[0]!.lessons[1]!.video = { source: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', embed_url: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', hls: false }
    const api = fakeCoursesApi({ courses: [c] })
    renderPage()
    const frame = (await screen.findByTitle('Dermatite atópica')) as HTMLIFrameElement
    const src = new URL(frame.src)
    expect(src.origin + src.pathname).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ')
    expect(src.searchParams.get('start')).toBe('125')
    expect(src.searchParams.get('enablejsapi')).toBe('1')
    const send = (data: unknown) => act(() => window.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(data), source: frame.contentWindow })))
    for (let t = 125; t <= 131; t += 0.5) send({ event: 'infoDelivery', info: { currentTime: t, playerState: 1, duration: 600 } })
    // A message from anywhere else is ignored.
    act(() => window.dispatchEvent(new MessageEvent('message', { data: JSON.stringify({ event: 'infoDelivery', info: { currentTime: 500, playerState: 1 } }), source: window })))
    send({ event: 'onStateChange', info: 2 })
    await waitFor(() => expect(puts(api.calls)).toHaveLength(1))
    expect(puts(api.calls)[0]!.body).toEqual({ position_seconds: 131, duration_seconds: 600, watched: [[125, 131]] })
  })

  it('embeds Vimeo and tracks it through postMessage', async () => {
    const c = theCourse()
    c.modules[0]!.lessons[1]!.video = { source: 'vimeo', url: 'https://vimeo.com/76979871', embed_url: 'https://player.vimeo.com/video/76979871', hls: false }
    const api = fakeCoursesApi({ courses: [c] })
    renderPage()
    const frame = (await screen.findByTitle('Dermatite atópica')) as HTMLIFrameElement
    expect(frame.src).toMatch(/^https:\/\/player\.vimeo\.com\/video\/76979871\?.*#t=125s$/)
    const posted: unknown[] = []
    vi.spyOn(frame.contentWindow!, 'postMessage').mockImplementation((m: unknown) => void posted.push(JSON.parse(m as string)))
    const send = (data: unknown) => act(() => window.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(data), source: frame.contentWindow })))
    send({ event: 'ready' })
    expect(posted).toContainEqual({ method: 'addEventListener', value: 'timeupdate' })
    send({ event: 'play', data: { seconds: 125 } })
    for (let t = 125; t <= 135; t += 0.25) send({ event: 'timeupdate', data: { seconds: t, duration: 900, percent: t / 900 } })
    send({ event: 'pause', data: { seconds: 135 } })
    await waitFor(() => expect(puts(api.calls)).toHaveLength(1))
    expect(puts(api.calls)[0]!.body).toEqual({ position_seconds: 135, duration_seconds: 900, watched: [[125, 135]] })
  })

  it('invites a reader without Premium to /pricing on a paid lesson', async () => {
    fakeCoursesApi({ courses: [theCourse()], premium: false })
    renderPage()
    expect(await screen.findByRole('heading', { name: 'Conteúdo exclusivo Premium' })).toBeInTheDocument()
    expect(screen.getByText('Esta aula é exclusiva para assinantes Premium. Assine para continuar.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ver Planos' })).toHaveAttribute('href', '/pricing')
    expect(screen.queryByLabelText('Dermatite atópica')).toBeNull()
  })

  it('opens a free lesson to anyone and asks for enrolment on the others', async () => {
    fakeCoursesApi({ courses: [theCourse({ is_enrolled: false })] })
    renderPage()
    expect(await screen.findByText('Matricule-se no curso para assistir a esta aula.')).toBeInTheDocument()
    // The refused lesson still names itself, from the course's curriculum.
    expect(await screen.findByRole('heading', { level: 1, name: 'Dermatite atópica' })).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Matricular-se' }))
    expect(await screen.findByLabelText('Dermatite atópica')).toBeInTheDocument()
  })

  it('plays a free lesson without enrolment', async () => {
    const c = theCourse({ is_enrolled: false })
    c.modules[0]!.lessons[0]!.is_free = true
    fakeCoursesApi({ courses: [c] })
    renderPage('/cursos/c1/aula/l1')
    expect(await screen.findByLabelText('Pele e anexos')).toBeInTheDocument()
    expect(screen.getByText('Grátis', { selector: 'header span' })).toBeInTheDocument()
  })
})
