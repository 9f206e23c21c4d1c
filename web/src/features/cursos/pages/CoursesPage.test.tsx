import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { dismissToast } from '@/components/ui/toast'
import { course, fakeCoursesApi, installBrowserGaps, renderRoutes, type Call } from '../test/fakeCoursesApi'
import CoursesPage from './CoursesPage'

function renderPage(path = '/cursos', options: { noRetry?: boolean } = {}) {
  return renderRoutes(
    [
      { path: '/cursos', element: <CoursesPage /> },
      { path: '/cursos/:id', element: <p>Página do curso</p> },
    ],
    path,
    options,
  )
}

const listCalls = (calls: Call[]) => calls.filter((c) => c.method === 'GET' && c.path === '/api/cursos')
const lastList = (calls: Call[]) => Object.fromEntries(listCalls(calls).at(-1)!.search)
const cards = () => within(screen.getByRole('list', { name: 'Cursos' })).getAllByRole('article')
const titles = () => cards().map((a) => a.getAttribute('aria-labelledby') && within(a).getByRole('heading').textContent)

const catalogue = () => [
  course('c1', {
    title: 'Emergências em pequenos animais',
    description: 'Atendimento de urgência: '.padEnd(140, 'x'),
    students: 30,
    rating: 4.9,
    level: 'Avançado',
    published_at: '2026-03-01T00:00:00Z',
    category: { id: 'cat-emerg', name: 'Emergência' },
    instructor: { id: 'inst-bruno', name: 'Dr. Bruno Reis', avatar: null, title: null },
    is_enrolled: true,
    progress: 40,
  }),
  course('c2', { title: 'Dermatologia veterinária', students: 50, rating: 4.2, published_at: '2026-05-01T00:00:00Z', is_favorite: true }),
  course('c3', {
    title: 'Gestão de clínicas',
    students: 10,
    rating: 4.6,
    published_at: '2026-01-15T00:00:00Z',
    category: { id: 'cat-gestao', name: 'Gestão' },
    is_enrolled: true,
    is_completed: true,
    progress: 100,
    duration: '12h',
  }),
]

beforeEach(() => installBrowserGaps())
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  dismissToast()
})

describe('CoursesPage', () => {
  it("lists the cards, most popular first, sending no filter for 'Todos', with the statistics strip", async () => {
    const api = fakeCoursesApi({ courses: catalogue() })
    renderPage()
    expect(screen.getByRole('heading', { level: 1, name: 'Cursos' })).toBeInTheDocument()
    await waitFor(() => expect(cards()).toHaveLength(3))
    expect(titles()).toEqual(['Dermatologia veterinária', 'Emergências em pequenos animais', 'Gestão de clínicas'])
    expect(lastList(api.calls)).toEqual({ sort: 'popular', page: '1' })

    const emerg = cards()[1]!
    expect(within(emerg).getByRole('link', { name: 'Emergências em pequenos animais' })).toHaveAttribute('href', '/cursos/c1')
    // The description preview: 100 characters and '…'.
    expect(within(emerg).getByText(/^Atendimento de urgência/).textContent).toHaveLength(101)
    expect(within(emerg).getByText('Dr. Bruno Reis')).toBeInTheDocument()
    expect(within(emerg).getByText('Avançado')).toBeInTheDocument()
    expect(within(emerg).getByText('4,9')).toBeInTheDocument()
    expect(within(emerg).getByText('30 alunos')).toBeInTheDocument()
    expect(within(emerg).getByText('10h')).toBeInTheDocument()
    expect(within(emerg).getByRole('progressbar', { name: 'Progresso em Emergências em pequenos animais' })).toHaveAttribute('aria-valuenow', '40')
    // No progress bar when not enrolled.
    expect(within(cards()[0]!).queryByRole('progressbar')).toBeNull()
    expect(within(cards()[0]!).getByRole('button', { name: 'Favoritar Dermatologia veterinária' })).toHaveAttribute('aria-pressed', 'true')

    const stats = screen.getByRole('region', { name: 'Suas estatísticas de cursos' })
    const value = (label: string) => within(stats).getByText(label).closest('dt')?.nextElementSibling?.textContent
    await waitFor(() => expect(value('Matriculados')).toBe('2'))
    expect(value('Concluídos')).toBe('1')
    expect(value('Favoritos')).toBe('1')
    expect(value('VetCoins em cursos')).toBe('300')
    expect(value('Progresso médio')).toBe('70%')
    expect(value('Horas concluídas')).toBe('12h')
    expect(screen.getByText('Você chegou ao fim da lista de cursos.')).toBeInTheDocument()
  })

  it('puts every filter and the sort in the URL and in the request, and Todos takes it out again', async () => {
    const api = fakeCoursesApi({ courses: catalogue() })
    const { router } = renderPage()
    await waitFor(() => expect(cards()).toHaveLength(3))
    const user = userEvent.setup()

    await user.selectOptions(screen.getByLabelText('Categoria'), 'Emergência')
    await waitFor(() => expect(titles()).toEqual(['Emergências em pequenos animais']))
    expect(router.state.location.search).toBe('?categoria=cat-emerg')
    expect(lastList(api.calls)).toEqual({ category: 'cat-emerg', sort: 'popular', page: '1' })

    await user.selectOptions(screen.getByLabelText('Categoria'), 'Todos')
    await user.selectOptions(screen.getByLabelText('Nível'), 'Iniciante')
    await waitFor(() => expect(titles()).toEqual(['Dermatologia veterinária', 'Gestão de clínicas']))
    expect(router.state.location.search).toBe('?nivel=Iniciante')
    expect(lastList(api.calls)).toEqual({ level: 'Iniciante', sort: 'popular', page: '1' })

    await user.selectOptions(screen.getByLabelText('Nível'), 'Todos')
    await user.selectOptions(screen.getByLabelText('Instrutor'), 'Dr. Bruno Reis')
    await waitFor(() => expect(titles()).toEqual(['Emergências em pequenos animais']))
    expect(lastList(api.calls)).toEqual({ instructor: 'inst-bruno', sort: 'popular', page: '1' })
    await user.selectOptions(screen.getByLabelText('Instrutor'), 'Todos')

    const status = screen.getByLabelText('Status')
    expect(within(status).getAllByRole('option').map((o) => o.textContent)).toEqual(['Todos', 'Matriculados', 'Concluídos', 'Favoritos'])
    await user.selectOptions(status, 'Matriculados')
    await waitFor(() => expect(titles()).toEqual(['Emergências em pequenos animais', 'Gestão de clínicas']))
    expect(router.state.location.search).toBe('?status=matriculados')
    expect(lastList(api.calls)).toEqual({ status: 'enrolled', sort: 'popular', page: '1' })
    await user.selectOptions(status, 'Concluídos')
    await waitFor(() => expect(titles()).toEqual(['Gestão de clínicas']))
    expect(lastList(api.calls).status).toBe('completed')
    await user.selectOptions(status, 'Favoritos')
    await waitFor(() => expect(titles()).toEqual(['Dermatologia veterinária']))
    expect(lastList(api.calls).status).toBe('favorites')
    await user.selectOptions(status, 'Todos')
    await waitFor(() => expect(cards()).toHaveLength(3))
    expect(router.state.location.search).toBe('')

    const sort = screen.getByLabelText('Ordenar por')
    expect(within(sort).getAllByRole('option').map((o) => o.textContent)).toEqual(['Mais populares', 'Mais recentes', 'Melhor avaliados', 'Título'])
    expect(sort).toHaveValue('popular')
    await user.selectOptions(sort, 'Mais recentes')
    await waitFor(() => expect(titles()).toEqual(['Dermatologia veterinária', 'Emergências em pequenos animais', 'Gestão de clínicas']))
    expect(router.state.location.search).toBe('?ordem=recentes')
    expect(lastList(api.calls).sort).toBe('newest')
    await user.selectOptions(sort, 'Melhor avaliados')
    await waitFor(() => expect(titles()).toEqual(['Emergências em pequenos animais', 'Gestão de clínicas', 'Dermatologia veterinária']))
    expect(lastList(api.calls).sort).toBe('rating')
    await user.selectOptions(sort, 'Título')
    await waitFor(() => expect(titles()).toEqual(['Dermatologia veterinária', 'Emergências em pequenos animais', 'Gestão de clínicas']))
    expect(router.state.location.search).toBe('?ordem=titulo')
    expect(lastList(api.calls).sort).toBe('title')
  })

  it('reads the filters from a shared URL', async () => {
    const api = fakeCoursesApi({ courses: catalogue() })
    renderPage('/cursos?categoria=cat-gestao&status=concluidos&ordem=avaliacao&busca=gest%C3%A3o')
    await waitFor(() => expect(titles()).toEqual(['Gestão de clínicas']))
    expect(listCalls(api.calls)).toHaveLength(1)
    expect(lastList(api.calls)).toEqual({ category: 'cat-gestao', status: 'completed', q: 'gestão', sort: 'rating', page: '1' })
    expect(screen.getByLabelText('Buscar cursos')).toHaveValue('gestão')
    expect(screen.getByLabelText('Status')).toHaveValue('completed')
    await waitFor(() => expect(screen.getByLabelText('Categoria')).toHaveValue('cat-gestao'))

    await userEvent.click(screen.getByRole('button', { name: 'Limpar filtros' }))
    await waitFor(() => expect(cards()).toHaveLength(3))
    expect(screen.getByLabelText('Buscar cursos')).toHaveValue('')
    expect(lastList(api.calls)).toEqual({ sort: 'rating', page: '1' })
  })

  it('searches once typing settles (debounced), accents ignored', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const api = fakeCoursesApi({ courses: catalogue() })
    const { router } = renderPage()
    await waitFor(() => expect(cards()).toHaveLength(3))
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime })
    await user.type(screen.getByLabelText('Buscar cursos'), 'dermato')
    // Nothing sent while typing.
    expect(listCalls(api.calls)).toHaveLength(1)
    await act(() => vi.advanceTimersByTimeAsync(400))
    await waitFor(() => expect(titles()).toEqual(['Dermatologia veterinária']))
    expect(listCalls(api.calls)).toHaveLength(2)
    expect(lastList(api.calls)).toEqual({ q: 'dermato', sort: 'popular', page: '1' })
    expect(router.state.location.search).toBe('?busca=dermato')

    await user.clear(screen.getByLabelText('Buscar cursos'))
    await user.type(screen.getByLabelText('Buscar cursos'), 'GESTAO')
    await act(() => vi.advanceTimersByTimeAsync(400))
    await waitFor(() => expect(titles()).toEqual(['Gestão de clínicas']))
  })

  it("pages 20 at a time with 'Carregar mais' while a full page comes back", async () => {
    const many = Array.from({ length: 45 }, (_, i) => course(`k${i + 1}`, { title: `Curso ${String(i + 1).padStart(2, '0')}`, students: 100 - i }))
    const api = fakeCoursesApi({ courses: many })
    renderPage()
    await waitFor(() => expect(cards()).toHaveLength(20))
    await userEvent.click(screen.getByRole('button', { name: 'Carregar mais' }))
    await waitFor(() => expect(cards()).toHaveLength(40))
    await userEvent.click(screen.getByRole('button', { name: 'Carregar mais' }))
    await waitFor(() => expect(cards()).toHaveLength(45))
    expect(screen.queryByRole('button', { name: 'Carregar mais' })).toBeNull()
    expect(listCalls(api.calls).map((c) => c.search.get('page'))).toEqual(['1', '2', '3'])
    expect(titles()[20]).toBe('Curso 21')
  })

  it('asks for one more page after an exactly full last page, then stops', async () => {
    const api = fakeCoursesApi({ courses: Array.from({ length: 20 }, (_, i) => course(`k${i}`)) })
    renderPage()
    await waitFor(() => expect(cards()).toHaveLength(20))
    await userEvent.click(screen.getByRole('button', { name: 'Carregar mais' }))
    await waitFor(() => expect(screen.getByText('Você chegou ao fim da lista de cursos.')).toBeInTheDocument())
    expect(cards()).toHaveLength(20)
    expect(listCalls(api.calls).map((c) => c.search.get('page'))).toEqual(['1', '2'])
  })

  it('loads the next page when the end of the list comes into view', async () => {
    let observers: Array<{ callback: IntersectionObserverCallback }> = []
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private callback: IntersectionObserverCallback) {}
        observe() {
          observers.push({ callback: this.callback })
        }
        disconnect() {
          observers = observers.filter((o) => o.callback !== this.callback)
        }
      },
    )
    fakeCoursesApi({ courses: Array.from({ length: 25 }, (_, i) => course(`k${i}`)) })
    renderPage()
    await waitFor(() => expect(cards()).toHaveLength(20))
    await waitFor(() => expect(observers).toHaveLength(1))
    act(() => observers[0]!.callback([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver))
    await waitFor(() => expect(cards()).toHaveLength(25))
    await waitFor(() => expect(observers).toHaveLength(0))
  })

  it("toggles a favorite at once and rolls it back with 'Erro ao favoritar curso'", async () => {
    let refuse = false
    const api = fakeCoursesApi({ courses: catalogue() }, { fail: (c) => refuse && c.path.endsWith('/favorito') && { status: 500, body: { error: { code: 'x', message: 'x' } } } })
    renderPage('/cursos', { noRetry: true })
    await waitFor(() => expect(cards()).toHaveLength(3))
    const heart = screen.getByRole('button', { name: 'Favoritar Gestão de clínicas' })
    expect(heart).toHaveAttribute('aria-pressed', 'false')
    await userEvent.click(heart)
    expect(heart).toHaveAttribute('aria-pressed', 'true')
    await waitFor(() => expect(api.state.courses.find((c) => c.id === 'c3')!.is_favorite).toBe(true))
    // The strip follows.
    const stats = screen.getByRole('region', { name: 'Suas estatísticas de cursos' })
    await waitFor(() => expect(within(stats).getByText('Favoritos').closest('dt')?.nextElementSibling).toHaveTextContent('2'))

    refuse = true
    await userEvent.click(heart)
    expect(await screen.findByText('Erro ao favoritar curso')).toBeInTheDocument()
    await waitFor(() => expect(heart).toHaveAttribute('aria-pressed', 'true'))
    expect(api.calls.filter((c) => c.path === '/api/cursos/c3/favorito')).toHaveLength(2)
  })

  it("shows 'Erro ao carregar cursos' with a retry", async () => {
    let refuse = true
    fakeCoursesApi({ courses: catalogue() }, { fail: (c) => refuse && c.path === '/api/cursos' && { status: 500, body: { error: { code: 'x', message: 'x' } } } })
    renderPage('/cursos', { noRetry: true })
    expect(await screen.findByText('Erro ao carregar cursos')).toBeInTheDocument()
    refuse = false
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }))
    await waitFor(() => expect(cards()).toHaveLength(3))
  })

  it('says when nothing matches', async () => {
    fakeCoursesApi({ courses: catalogue() })
    renderPage('/cursos?busca=ornitologia')
    expect(await screen.findByText('Nenhum curso encontrado.')).toBeInTheDocument()
    expect(screen.getByText('Tente outros filtros ou outra busca.')).toBeInTheDocument()
  })
})
