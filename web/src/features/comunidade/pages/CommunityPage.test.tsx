import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { dismissToast } from '@/components/ui/toast'
import { ME, author, fakeCommunityApi, installBrowserGaps, post, renderRoutes, type Call } from '../test/fakeCommunityApi'
import CommunityPage from './CommunityPage'

function renderPage(path = '/community', options: { noRetry?: boolean } = {}) {
  return renderRoutes(
    [
      { path: '/community', element: <CommunityPage /> },
      { path: '/connections', element: <p>Página de conexões</p> },
      { path: '/profile/:id', element: <p>Perfil</p> },
    ],
    path,
    options,
  )
}

const feed = () => screen.findByRole('feed', { name: 'Publicações' })
const articles = async () => within(await feed()).getAllByRole('article').filter((a) => a.getAttribute('aria-label')?.startsWith('Publicação de'))
const feedCalls = (calls: Call[]) => calls.filter((c) => c.path === '/api/community/feed')
const many = (n: number) => Array.from({ length: n }, (_, i) => post(`p${i + 1}`, { author: author(`u${i + 1}`, `Pessoa${i + 1}`) }))

let observers: Array<{ callback: IntersectionObserverCallback; elements: Element[] }> = []

beforeEach(() => {
  installBrowserGaps()
  observers = []
})
afterEach(() => {
  vi.unstubAllGlobals()
  dismissToast()
})

describe('CommunityPage', () => {
  it("switches between 'Todos' and 'Minhas conexões'", async () => {
    const api = fakeCommunityApi({
      posts: [post('p1', { author: author('u1', 'Ana') }), post('p2', { author: author('u2', 'Carla') })],
      connections: ['p2'],
    })
    renderPage()
    expect(screen.getByRole('heading', { level: 1, name: 'Comunidade' })).toBeInTheDocument()
    const todos = screen.getByRole('tab', { name: 'Todos' })
    expect(todos).toHaveAttribute('aria-selected', 'true')
    expect((await articles()).map((a) => a.getAttribute('aria-label'))).toEqual(['Publicação de Ana Souza', 'Publicação de Carla Souza'])

    await userEvent.click(screen.getByRole('tab', { name: 'Minhas conexões' }))
    expect(screen.getByRole('tab', { name: 'Minhas conexões' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('tabpanel')).toHaveAccessibleName('Minhas conexões')
    await waitFor(async () => expect((await articles()).map((a) => a.getAttribute('aria-label'))).toEqual(['Publicação de Carla Souza']))
    expect(feedCalls(api.calls).map((c) => c.search.get('tab'))).toEqual(['todos', 'conexoes'])

    // Arrow keys move between the tabs.
    await userEvent.keyboard('{ArrowLeft}')
    expect(screen.getByRole('tab', { name: 'Todos' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('tab', { name: 'Todos' })).toHaveFocus()
  })

  it('shows the empty connections tab with a way to find people', async () => {
    fakeCommunityApi({ posts: [post('p1')], connections: [] })
    renderPage()
    await feed()
    await userEvent.click(screen.getByRole('tab', { name: 'Minhas conexões' }))
    expect(await screen.findByText(/Suas conexões ainda não publicaram nada/)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Encontrar conexões' })).toHaveAttribute('href', '/connections')
  })

  it("pages with 'Carregar mais' until the end", async () => {
    const api = fakeCommunityApi({ posts: many(45) })
    renderPage()
    expect(await articles()).toHaveLength(20)
    await userEvent.click(screen.getByRole('button', { name: 'Carregar mais' }))
    await waitFor(async () => expect(await articles()).toHaveLength(40))
    await userEvent.click(screen.getByRole('button', { name: 'Carregar mais' }))
    await waitFor(async () => expect(await articles()).toHaveLength(45))
    expect(screen.queryByRole('button', { name: 'Carregar mais' })).toBeNull()
    expect(screen.getByText('Você chegou ao fim das publicações.')).toBeInTheDocument()
    expect(feedCalls(api.calls).map((c) => c.search.get('cursor'))).toEqual([null, '20', '40'])
    // Newest first, as the server sent them, with no page repeated.
    expect((await articles())[20]).toHaveAccessibleName('Publicação de Pessoa21 Souza')
  })

  it('loads the next page when the end of the feed comes into view', async () => {
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private callback: IntersectionObserverCallback) {}
        observe(el: Element) {
          observers.push({ callback: this.callback, elements: [el] })
        }
        disconnect() {
          observers = observers.filter((o) => o.callback !== this.callback)
        }
      },
    )
    fakeCommunityApi({ posts: many(25) })
    renderPage()
    expect(await articles()).toHaveLength(20)
    await waitFor(() => expect(observers).toHaveLength(1))
    act(() => observers[0]!.callback([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver))
    await waitFor(async () => expect(await articles()).toHaveLength(25))
    // No more pages: nothing left to observe.
    await waitFor(() => expect(observers).toHaveLength(0))
  })

  it("shows 'Erro ao carregar publicações' with a retry", async () => {
    let refuse = true
    fakeCommunityApi({ posts: [post('p1')] }, { fail: (c) => refuse && c.path === '/api/community/feed' && { status: 500, body: { error: { code: 'x', message: 'x' } } } })
    renderPage('/community', { noRetry: true })
    expect(await screen.findByText('Erro ao carregar publicações')).toBeInTheDocument()
    refuse = false
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }))
    expect(await articles()).toHaveLength(1)
  })

  it('shows the author, the time and the text with member HTML inert', async () => {
    fakeCommunityApi({
      posts: [post('p1', { author: author('u1', 'Ana', { verified: true, title: 'Cirurgiã' }), content: '**Oi** <img src=x onerror=alert(1)> [x](javascript:alert(1))', edited_at: new Date().toISOString() })],
    })
    renderPage()
    const [card] = await articles()
    expect(within(card!).getByRole('link', { name: /Ana Souza/ })).toHaveAttribute('href', '/profile/u1')
    expect(within(card!).getByRole('img', { name: 'Verificado' })).toBeInTheDocument()
    expect(within(card!).getByText('Cirurgiã')).toBeInTheDocument()
    expect(within(card!).getByText('há 5 minutos')).toBeInTheDocument()
    expect(within(card!).getByText(/editado/)).toBeInTheDocument()
    expect(card!.querySelector('strong')).toHaveTextContent('Oi')
    expect(card!.querySelector('img[src="x"], [onerror]')).toBeNull()
    expect(within(card!).queryByRole('link', { name: 'x' })).toBeNull()
  })

  it('likes at once and rolls back with a message when the server refuses', async () => {
    let refuse = false
    const api = fakeCommunityApi(
      { posts: [post('p1', { likes: 2 })] },
      { fail: (c) => refuse && c.path.endsWith('/like') && { status: 500, body: { error: { code: 'x', message: 'x' } } } },
    )
    renderPage('/community', { noRetry: true })
    const [card] = await articles()
    const like = within(card!).getByRole('button', { name: /^Curtir\s*\d/ })
    expect(like).toHaveAttribute('aria-pressed', 'false')
    expect(like).toHaveAccessibleDescription('2 curtidas')
    await userEvent.click(like)
    expect(like).toHaveAttribute('aria-pressed', 'true')
    expect(like).toHaveAccessibleDescription('3 curtidas')
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT' && c.path === '/api/community/posts/p1/like')).toBe(true))

    refuse = true
    await userEvent.click(like)
    expect(await screen.findByText('Erro ao curtir publicação')).toBeInTheDocument()
    await waitFor(() => expect(like).toHaveAttribute('aria-pressed', 'true'))
    expect(like).toHaveAccessibleDescription('3 curtidas')
  })

  it("lets the author edit ('editado') and delete after confirming", async () => {
    const api = fakeCommunityApi({ posts: [post('p1', { author: ME, is_mine: true, content: 'Primeira versão' })] })
    renderPage()
    const [card] = await articles()
    await userEvent.click(within(card!).getByRole('button', { name: 'Mais opções da publicação' }))
    const menu = screen.getByRole('menu', { name: 'Mais opções da publicação' })
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Editar', 'Excluir'])
    await userEvent.click(within(menu).getByRole('menuitem', { name: 'Editar' }))
    const field = within(card!).getByLabelText('Editar publicação')
    await userEvent.clear(field)
    await userEvent.type(field, 'Segunda versão')
    await userEvent.click(within(card!).getByRole('button', { name: 'Salvar' }))
    expect(await within(card!).findByText('Segunda versão')).toBeInTheDocument()
    expect(within(card!).getByText(/editado/)).toBeInTheDocument()
    expect(api.calls.find((c) => c.method === 'PUT' && c.path === '/api/community/posts/p1')!.body).toEqual({ content: 'Segunda versão', media_ids: [] })

    await userEvent.click(within(card!).getByRole('button', { name: 'Mais opções da publicação' }))
    await userEvent.click(screen.getByRole('menuitem', { name: 'Excluir' }))
    const confirm = screen.getByRole('dialog', { name: 'Excluir publicação' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Excluir' }))
    expect(await screen.findByText('Publicação excluída')).toBeInTheDocument()
    expect(await screen.findByText(/Nenhuma publicação ainda/)).toBeInTheDocument()
  })

  it("offers 'Denunciar' with a reason and 'Bloquear usuário' with confirmation on other people's posts", async () => {
    const api = fakeCommunityApi({ posts: [post('p1', { author: author('u1', 'Ana') })] })
    renderPage()
    const [card] = await articles()
    await userEvent.click(within(card!).getByRole('button', { name: 'Mais opções da publicação' }))
    expect(screen.getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Denunciar', 'Bloquear usuário'])
    await userEvent.click(screen.getByRole('menuitem', { name: 'Denunciar' }))
    const report = screen.getByRole('dialog', { name: 'Denunciar publicação' })
    await userEvent.click(within(report).getByRole('button', { name: 'Enviar denúncia' }))
    expect(within(report).getByRole('alert')).toHaveTextContent('Informe o motivo da denúncia')
    // 'Outro motivo' needs the details; a category alone is enough otherwise.
    await userEvent.click(within(report).getByRole('radio', { name: 'Outro motivo' }))
    await userEvent.click(within(report).getByRole('button', { name: 'Enviar denúncia' }))
    expect(within(report).getByRole('alert')).toHaveTextContent('Informe o motivo da denúncia')
    await userEvent.click(within(report).getByRole('radio', { name: 'Spam ou propaganda' }))
    await userEvent.type(within(report).getByLabelText('Detalhes (opcional)'), 'Propaganda enganosa')
    await userEvent.click(within(report).getByRole('button', { name: 'Enviar denúncia' }))
    expect(await screen.findByText('Denúncia enviada. Obrigado por ajudar a manter a comunidade segura.')).toBeInTheDocument()
    expect(api.calls.find((c) => c.path === '/api/reports')!.body).toEqual({
      target_type: 'post',
      target_id: 'p1',
      category: 'spam',
      reason: 'Propaganda enganosa',
    })

    await userEvent.click(within(card!).getByRole('button', { name: 'Mais opções da publicação' }))
    await userEvent.click(screen.getByRole('menuitem', { name: 'Bloquear usuário' }))
    const block = screen.getByRole('dialog', { name: 'Bloquear usuário' })
    expect(block).toHaveTextContent('Tem certeza de que deseja bloquear Ana Souza?')
    await userEvent.click(within(block).getByRole('button', { name: 'Bloquear' }))
    expect(await screen.findByText('Usuário bloqueado')).toBeInTheDocument()
    expect(api.calls.find((c) => c.path === '/api/blocks')!.body).toEqual({ user_id: 'u1' })
  })

  it('opens the comments modal from a post, and Back closes it', async () => {
    fakeCommunityApi({ posts: [post('p1', { comments_count: 0 })], comments: { p1: [] } })
    const router = renderPage()
    const [card] = await articles()
    await userEvent.click(within(card!).getByRole('button', { name: /^Ver comentários\s*\d/ }))
    expect(await screen.findByRole('dialog', { name: 'Comentários' })).toBeInTheDocument()
    expect(router.state.location.search).toBe('?post=p1')

    // Writing a comment updates the post's count in the feed behind.
    await userEvent.type(screen.getByLabelText('Escreva um comentário'), 'Muito bom{Enter}')
    await waitFor(() => expect(within(card!).getByRole('button', { name: /^Ver comentários\s*\d/ })).toHaveAccessibleDescription('1 comentário'))

    await act(() => router.navigate(-1))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Comentários' })).toBeNull())
    expect(router.state.location.search).toBe('')
  })

  it('opens the modal from a /community?post= link; closing drops the parameter and Back stays on the feed', async () => {
    fakeCommunityApi({ posts: [post('p1'), post('p2', { author: author('u2', 'Bia') })], comments: { p2: [] } })
    const router = renderPage('/community?post=p2')
    const modal = await screen.findByRole('dialog', { name: 'Comentários' })
    expect(await within(modal).findByText('Publicação p2')).toBeInTheDocument()
    await waitFor(() => expect((router.state.location.state as { communityModal?: boolean } | null)?.communityModal).toBe(true))

    await userEvent.click(within(modal).getByRole('button', { name: 'Fechar' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Comentários' })).toBeNull())
    expect(router.state.location.pathname).toBe('/community')
    expect(router.state.location.search).toBe('')

    // The link's entry now holds the feed: opening again and going Back lands here, not before the page.
    await act(() => router.navigate('/community?post=p2'))
    expect(await screen.findByRole('dialog', { name: 'Comentários' })).toBeInTheDocument()
    await waitFor(() => expect((router.state.location.state as { communityModal?: boolean } | null)?.communityModal).toBe(true))
    await act(() => router.navigate(-1))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Comentários' })).toBeNull())
    expect(router.state.location.pathname).toBe('/community')
  })

  it('links to /connections beside the feed', async () => {
    fakeCommunityApi({ posts: [] })
    renderPage()
    const side = screen.getByRole('complementary', { name: 'Conexões' })
    expect(within(side).getByRole('link', { name: 'Ver conexões' })).toHaveAttribute('href', '/connections')
  })

  it('publishes from the composer to the top of the feed', async () => {
    fakeCommunityApi({ posts: [post('p1')] })
    renderPage()
    await articles()
    await userEvent.type(screen.getByLabelText('Escreva sua publicação'), 'Novidade fresquinha')
    await userEvent.click(screen.getByRole('button', { name: 'Publicar' }))
    await waitFor(async () => expect((await articles())[0]).toHaveAccessibleName('Publicação de Dra. Lia Prado'))
    expect(within((await articles())[0]!).getByText('Novidade fresquinha')).toBeInTheDocument()
  })
})
