import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { dismissToast } from '@/components/ui/toast'
import { installBrowserGaps, renderRoutes } from '@/test/renderRoutes'
import { failWith, fakeVideosApi, video, type Call } from '../test/fakeVideosApi'
import VideosPage from './VideosPage'

function renderPage(path = '/conteudos-exclusivos') {
  return renderRoutes(
    [
      { path: '/conteudos-exclusivos', element: <VideosPage /> },
      { path: '/pricing', element: <p>Planos</p> },
    ],
    path,
    { noRetry: true },
  )
}

const listCalls = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.path === '/api/videos')
const lastList = (calls: Call[]) => Object.fromEntries(listCalls(calls).at(-1)!.search)
const cards = () => within(screen.getByRole('list', { name: 'Vídeos' })).getAllByRole('article')
const titles = () => cards().map((a) => within(a).getByRole('heading').textContent)

/** v01 is the newest: the list's order is newest first. */
const many = (n: number) =>
  Array.from({ length: n }, (_, i) => video(`v${String(i + 1).padStart(2, '0')}`, { published_at: `2026-01-${String(28 - i).padStart(2, '0')}T00:00:00Z` }))

const library = () => [
  video('v1', {
    title: 'Sutura intradérmica',
    published_at: '2026-03-01T00:00:00Z',
    category: { id: 'cat-cirurgia', name: 'Cirurgia' },
    difficulty: 'Avançado',
    duration: '12min',
    duration_seconds: 720,
    views: 1234,
    likes: 1,
    is_favorite: true,
  }),
  video('v2', { title: 'Exame dermatológico', published_at: '2026-02-01T00:00:00Z', is_completed: true, duration_seconds: 3600 }),
  video('v3', { title: 'Anestesia em felinos', published_at: '2026-01-01T00:00:00Z', duration_seconds: 1800 }),
]
const categories = [
  { id: 'cat-clinica', name: 'Clínica' },
  { id: 'cat-cirurgia', name: 'Cirurgia' },
]

beforeEach(() => installBrowserGaps())
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  dismissToast()
})

describe('VideosPage', () => {
  it('lists the cards newest first with duration, difficulty, views, likes, favorite and completed, and the statistics', async () => {
    const api = fakeVideosApi({ videos: library(), categories })
    renderPage()
    expect(screen.getByRole('heading', { level: 1, name: 'Conteúdos Exclusivos' })).toBeInTheDocument()
    await waitFor(() => expect(cards()).toHaveLength(3))
    expect(titles()).toEqual(['Sutura intradérmica', 'Exame dermatológico', 'Anestesia em felinos'])
    expect(lastList(api.calls)).toEqual({ page: '1' })

    const first = cards()[0]!
    expect(within(first).getByRole('link', { name: 'Sutura intradérmica' })).toHaveAttribute('href', '#v1')
    expect(within(first).getByText('12min')).toBeInTheDocument()
    expect(within(first).getByText('Avançado')).toBeInTheDocument()
    expect(within(first).getByText('Cirurgia')).toBeInTheDocument()
    expect(within(first).getByText('1.234 visualizações')).toBeInTheDocument()
    expect(within(first).getByText('1 curtida')).toBeInTheDocument()
    expect(within(first).getByRole('button', { name: 'Favoritar Sutura intradérmica' })).toHaveAttribute('aria-pressed', 'true')
    expect(within(first).queryByText('Premium')).toBeNull()
    expect(within(cards()[1]!).getByText('Concluído')).toBeInTheDocument()

    const stats = screen.getByRole('region', { name: 'Suas estatísticas de vídeos' })
    const value = (label: string) => within(stats).getByText(label).closest('dt')?.nextElementSibling?.textContent
    await waitFor(() => expect(value('Total de vídeos')).toBe('3'))
    expect(value('Concluídos')).toBe('1')
    expect(value('Favoritos')).toBe('1')
    expect(value('Progresso')).toBe('33%')
    expect(value('Horas de conteúdo')).toBe('1,7h')
    expect(screen.getByText('Você chegou ao fim da lista de vídeos.')).toBeInTheDocument()
  })

  it('pages 8 first, then 4 at a time (offsets 8 and 12), until the server has no more', async () => {
    const api = fakeVideosApi({ videos: many(14) })
    renderPage()
    await waitFor(() => expect(cards()).toHaveLength(8))
    await userEvent.click(screen.getByRole('button', { name: 'Carregar mais' }))
    await waitFor(() => expect(cards()).toHaveLength(12))
    // Page 2 starts at offset 8: the 9th newest.
    expect(titles()[8]).toBe('Vídeo v09')
    await userEvent.click(screen.getByRole('button', { name: 'Carregar mais' }))
    await waitFor(() => expect(cards()).toHaveLength(14))
    expect(titles()[12]).toBe('Vídeo v13')
    expect(screen.queryByRole('button', { name: 'Carregar mais' })).toBeNull()
    expect(listCalls(api.calls).map((c) => c.search.get('page'))).toEqual(['1', '2', '3'])
  })

  it('loads the next page when the end of the list scrolls into view', async () => {
    let observed: IntersectionObserverCallback | null = null
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(cb: IntersectionObserverCallback) {
          observed = cb
        }
        observe() {}
        disconnect() {}
      },
    )
    const api = fakeVideosApi({ videos: many(10) })
    renderPage()
    await waitFor(() => expect(cards()).toHaveLength(8))
    act(() => observed!([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver))
    await waitFor(() => expect(cards()).toHaveLength(10))
    expect(listCalls(api.calls).map((c) => c.search.get('page'))).toEqual(['1', '2'])
  })

  it("sends the category, 'Apenas favoritos' and 'Apenas concluídos' in the request", async () => {
    const api = fakeVideosApi({ videos: library(), categories })
    renderPage()
    await waitFor(() => expect(cards()).toHaveLength(3))
    const user = userEvent.setup()
    await waitFor(() => expect(within(screen.getByLabelText('Categoria')).getAllByRole('option').map((o) => o.textContent)).toEqual(['Todas', 'Clínica', 'Cirurgia']))
    await user.selectOptions(screen.getByLabelText('Categoria'), 'Cirurgia')
    await waitFor(() => expect(titles()).toEqual(['Sutura intradérmica']))
    expect(lastList(api.calls)).toEqual({ category: 'cat-cirurgia', page: '1' })
    await user.selectOptions(screen.getByLabelText('Categoria'), 'Todas')
    await waitFor(() => expect(cards()).toHaveLength(3))

    await user.click(screen.getByRole('checkbox', { name: 'Apenas favoritos' }))
    await waitFor(() => expect(titles()).toEqual(['Sutura intradérmica']))
    expect(lastList(api.calls)).toEqual({ favorites: 'true', page: '1' })
    await user.click(screen.getByRole('checkbox', { name: 'Apenas favoritos' }))
    await user.click(screen.getByRole('checkbox', { name: 'Apenas concluídos' }))
    await waitFor(() => expect(titles()).toEqual(['Exame dermatológico']))
    expect(lastList(api.calls)).toEqual({ completed: 'true', page: '1' })

    await user.click(screen.getByRole('button', { name: 'Limpar filtros' }))
    await waitFor(() => expect(cards()).toHaveLength(3))
    // The unfiltered list comes back from the cache.
    expect(screen.getByRole('checkbox', { name: 'Apenas concluídos' })).not.toBeChecked()
    expect(screen.queryByRole('button', { name: 'Limpar filtros' })).toBeNull()
  })

  it('searches once typing settles (debounced), accents ignored', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const api = fakeVideosApi({ videos: library() })
    renderPage()
    await waitFor(() => expect(cards()).toHaveLength(3))
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
    await user.type(screen.getByLabelText('Buscar vídeos'), 'anestesia')
    expect(listCalls(api.calls)).toHaveLength(1)
    await act(() => vi.advanceTimersByTimeAsync(400))
    await waitFor(() => expect(titles()).toEqual(['Anestesia em felinos']))
    expect(listCalls(api.calls)).toHaveLength(2)
    expect(lastList(api.calls)).toEqual({ q: 'anestesia', page: '1' })
    await user.clear(screen.getByLabelText('Buscar vídeos'))
    await user.type(screen.getByLabelText('Buscar vídeos'), 'DERMATOLOGICO')
    await act(() => vi.advanceTimersByTimeAsync(400))
    await waitFor(() => expect(titles()).toEqual(['Exame dermatológico']))
  })

  it("says 'Erro ao carregar vídeos' and 'Erro ao carregar categorias' when the reads fail, and retries", async () => {
    let failing = true
    fakeVideosApi({ videos: library() }, { fail: (c) => (c.path === '/api/videos/categorias' || (failing && c.path === '/api/videos')) && failWith(500) })
    renderPage()
    expect(await screen.findByText('Erro ao carregar vídeos')).toBeInTheDocument()
    expect(await screen.findByText('Erro ao carregar categorias')).toBeInTheDocument()
    failing = false
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }))
    await waitFor(() => expect(cards()).toHaveLength(3))
  })

  it('opens #videoId from a shared link, closes it removing the hash, and Back closes a dialog opened from a card', async () => {
    fakeVideosApi({ videos: library() })
    const { router } = renderPage('/conteudos-exclusivos#v2')
    const dialog = await screen.findByRole('dialog', { name: 'Exame dermatológico' })
    await waitFor(() => expect(router.state.location.hash).toBe('#v2'))
    await userEvent.click(within(dialog).getByRole('button', { name: 'Fechar' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(router.state.location.hash).toBe('')
    expect(router.state.location.pathname).toBe('/conteudos-exclusivos')

    await waitFor(() => expect(cards()).toHaveLength(3))
    await userEvent.click(screen.getByRole('link', { name: 'Sutura intradérmica' }))
    expect(await screen.findByRole('dialog', { name: 'Sutura intradérmica' })).toBeInTheDocument()
    expect(router.state.location.hash).toBe('#v1')
    await act(() => router.navigate(-1))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(router.state.location.hash).toBe('')

    // Escape (the dialog's cancel) closes it too, going back in history.
    await userEvent.click(screen.getByRole('link', { name: 'Anestesia em felinos' }))
    const third = await screen.findByRole('dialog', { name: 'Anestesia em felinos' })
    const entries = router.state.historyAction
    expect(entries).toBe('PUSH')
    fireEvent(third, new Event('cancel', { cancelable: true }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(router.state.location.hash).toBe('')
    expect(router.state.historyAction).toBe('POP')
  })

  it('shows locked videos with a Premium badge and, when one is opened, the invitation to /pricing', async () => {
    const api = fakeVideosApi({ videos: library(), access: false })
    renderPage()
    await waitFor(() => expect(cards()).toHaveLength(3))
    for (const c of cards()) expect(within(c).getByText('Premium')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('link', { name: 'Anestesia em felinos' }))
    const dialog = await screen.findByRole('dialog')
    expect(await within(dialog).findByRole('heading', { name: 'Conteúdo exclusivo Premium' })).toBeInTheDocument()
    expect(within(dialog).getByText('Este vídeo é exclusivo para assinantes Premium. Assine para continuar.')).toBeInTheDocument()
    expect(within(dialog).getByRole('link', { name: 'Ver Planos' })).toHaveAttribute('href', '/pricing')
    expect(dialog.querySelector('video')).toBeNull()
    expect(api.calls.some((c) => c.path.endsWith('/progresso') || c.path.endsWith('/visualizacao'))).toBe(false)
  })
})
