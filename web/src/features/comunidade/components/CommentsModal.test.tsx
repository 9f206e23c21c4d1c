import type { ReactNode } from 'react'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { dismissToast } from '@/components/ui/toast'
import { useAuth } from '@/lib/session/AuthProvider'
import { ME, author, comment, fakeCommunityApi, installBrowserGaps, media, post, renderRoutes, type Call } from '../test/fakeCommunityApi'
import { isSendKey } from './CommentComposer'
import { CommentsModal } from './CommentsModal'

const ago = (m: number) => new Date(Date.now() - m * 60_000).toISOString()

// The app shows the modal once the session is known (the page is behind the guard).
function AfterSessionCheck({ children }: { children: ReactNode }) {
  return useAuth().loading ? null : children
}

function renderModal(options: { noRetry?: boolean } = {}) {
  const onClose = vi.fn()
  renderRoutes(
    [
      {
        path: '/community',
        element: (
          <AfterSessionCheck>
            <CommentsModal postId="p1" onClose={onClose} />
          </AfterSessionCheck>
        ),
      },
    ],
    '/community',
    options,
  )
  return { onClose }
}

const dialog = () => screen.getByRole('dialog', { name: 'Comentários' })
const commentArticle = (name: string) => screen.getByRole('article', { name: `Comentário de ${name}` })
const composer = () => screen.getByLabelText('Escreva um comentário')
const sendButton = () => screen.getByRole('button', { name: 'Enviar comentário' })
const writes = (api: { calls: Call[] }, method: string, path: RegExp) => api.calls.filter((c) => c.method === method && path.test(c.path))

beforeEach(installBrowserGaps)
afterEach(() => {
  vi.unstubAllGlobals()
  dismissToast()
})

describe('CommentsModal', () => {
  it('lists top-level comments newest first and replies oldest first; Responder only on top-level comments', async () => {
    fakeCommunityApi({
      posts: [post('p1')],
      comments: {
        p1: [
          comment('old', { author: author('a', 'Antiga'), created_at: ago(60) }),
          comment('new', {
            author: author('n', 'Nova'),
            created_at: ago(1),
            replies: [
              comment('r2', { parent_id: 'new', author: author('r2', 'Segunda'), created_at: ago(0.5) }),
              comment('r1', { parent_id: 'new', author: author('r1', 'Primeira'), created_at: ago(0.8) }),
            ],
          }),
        ],
      },
    })
    renderModal()
    const list = await screen.findByRole('list', { name: 'Lista de comentários' })
    const top = within(list).getAllByRole('article').filter((a) => a.closest('ul') === list)
    expect(top.map((a) => a.getAttribute('aria-label'))).toEqual(['Comentário de Nova Souza', 'Comentário de Antiga Souza'])
    const replies = within(screen.getByRole('list', { name: 'Respostas a Nova Souza' })).getAllByRole('article')
    expect(replies.map((a) => a.getAttribute('aria-label'))).toEqual(['Comentário de Primeira Souza', 'Comentário de Segunda Souza'])

    expect(screen.getAllByRole('button', { name: 'Responder' })).toHaveLength(2)
    expect(within(replies[0]!).queryByRole('button', { name: 'Responder' })).toBeNull()
  })

  it("lets the post's author mark a colleague's comment as the accepted answer, and only them", async () => {
    const api = fakeCommunityApi({
      posts: [post('p1', { author: ME, is_mine: true, comments_count: 2 })],
      comments: {
        p1: [
          comment('mine', { author: ME, is_mine: true, created_at: ago(2) }),
          comment('help', { author: author('h', 'Helena'), created_at: ago(5) }),
        ],
      },
    })
    renderModal()
    await screen.findByRole('list', { name: 'Lista de comentários' })
    expect(within(commentArticle('Dra. Lia Prado')).queryByRole('button', { name: 'Marcar como resposta' })).toBeNull()
    await userEvent.click(within(commentArticle('Helena Souza')).getByRole('button', { name: 'Marcar como resposta' }))
    await waitFor(() => expect(within(commentArticle('Helena Souza')).getByText('Resposta aceita')).toBeTruthy())
    expect(writes(api, 'PUT', /\/resposta-aceita$/).map((c) => c.body)).toEqual([{ comment_id: 'help' }])
    await userEvent.click(within(commentArticle('Helena Souza')).getByRole('button', { name: 'Desmarcar resposta' }))
    await waitFor(() => expect(within(commentArticle('Helena Souza')).queryByText('Resposta aceita')).toBeNull())
    expect(writes(api, 'DELETE', /\/resposta-aceita$/)).toHaveLength(1)
  })

  it("shows the accepted answer to readers without letting them change it", async () => {
    fakeCommunityApi({
      posts: [post('p1', { accepted_comment_id: 'help', comments_count: 1 })],
      comments: { p1: [comment('help', { author: author('h', 'Helena') })] },
    })
    renderModal()
    await screen.findByRole('list', { name: 'Lista de comentários' })
    expect(within(commentArticle('Helena Souza')).getByText('Resposta aceita')).toBeTruthy()
    expect(screen.queryByRole('button', { name: /Marcar como resposta|Desmarcar resposta/ })).toBeNull()
  })

  it('replies to a top-level comment with parent_id, appended after the older replies', async () => {
    const api = fakeCommunityApi({
      posts: [post('p1', { comments_count: 2 })],
      comments: { p1: [comment('c1', { replies: [comment('r1', { parent_id: 'c1', created_at: ago(2) })] })] },
    })
    renderModal()
    await userEvent.click(await screen.findByRole('button', { name: 'Responder' }))
    const field = screen.getByLabelText('Responder a Bruno Souza')
    expect(field).toHaveFocus()
    await userEvent.type(field, 'Concordo!{Enter}')
    await waitFor(() => expect(writes(api, 'POST', /comments$/)).toHaveLength(1))
    expect(writes(api, 'POST', /comments$/)[0]!.body).toEqual({ content: 'Concordo!', parent_id: 'c1' })
    const replies = within(await screen.findByRole('list', { name: 'Respostas a Bruno Souza' })).findAllByRole('article')
    await waitFor(async () => expect((await replies).map((a) => a.textContent)).toEqual([expect.stringContaining('Comentário r1'), expect.stringContaining('Concordo!')]))
    // The reply box closes after sending.
    expect(screen.queryByLabelText('Responder a Bruno Souza')).toBeNull()
  })

  it('keeps like and dislike mutually exclusive with live counts', async () => {
    const api = fakeCommunityApi({ posts: [post('p1')], comments: { p1: [comment('c1', { likes: 2, dislikes: 1 })] } })
    renderModal()
    await screen.findByRole('article', { name: 'Comentário de Bruno Souza' })
    const like = () => within(commentArticle('Bruno Souza')).getByRole('button', { name: /^Curtir comentário/ })
    const dislike = () => within(commentArticle('Bruno Souza')).getByRole('button', { name: /^Não curtir comentário/ })

    await userEvent.click(like())
    expect(like()).toHaveAttribute('aria-pressed', 'true')
    expect(like()).toHaveTextContent('3')
    await userEvent.click(dislike())
    expect(like()).toHaveAttribute('aria-pressed', 'false')
    expect(dislike()).toHaveAttribute('aria-pressed', 'true')
    expect(like()).toHaveTextContent('2')
    expect(dislike()).toHaveTextContent('2')
    await userEvent.click(dislike())
    expect(dislike()).toHaveAttribute('aria-pressed', 'false')
    expect(dislike()).toHaveTextContent('1')

    await waitFor(() => expect(writes(api, 'PUT', /reaction$/)).toHaveLength(3))
    expect(writes(api, 'PUT', /reaction$/).map((c) => (c.body as { reaction: string }).reaction)).toEqual(['like', 'dislike', 'none'])
    // The server agrees with what the screen showed.
    await waitFor(() => expect(like()).toHaveTextContent('2'))
    expect(dislike()).toHaveTextContent('1')
  })

  it.each([
    ['Curtir comentário', 'Erro ao curtir comentário'],
    ['Não curtir comentário', 'Erro ao não curtir comentário'],
  ])('rolls %s back with its message when it fails', async (button, message) => {
    fakeCommunityApi(
      { posts: [post('p1')], comments: { p1: [comment('c1', { likes: 4, dislikes: 1, is_liked: true })] } },
      { fail: (c) => c.method === 'PUT' && c.path.endsWith('/reaction') && { status: 500, body: { error: { code: 'x', message: 'Erro interno' } } } },
    )
    renderModal({ noRetry: true })
    const target = within(await screen.findByRole('article', { name: 'Comentário de Bruno Souza' })).getByRole('button', { name: new RegExp(`^${button}`) })
    await userEvent.click(target)
    expect(await screen.findByText(message)).toBeInTheDocument()
    const article = commentArticle('Bruno Souza')
    await waitFor(() => expect(within(article).getByRole('button', { name: /^Curtir comentário/ })).toHaveAttribute('aria-pressed', 'true'))
    expect(within(article).getByRole('button', { name: /^Curtir comentário/ })).toHaveTextContent('4')
    expect(within(article).getByRole('button', { name: /^Não curtir comentário/ })).toHaveTextContent('1')
    expect(within(article).getByRole('button', { name: /^Não curtir comentário/ })).toHaveAttribute('aria-pressed', 'false')
  })

  it('shows Editar and Excluir only on the reader’s own comments', async () => {
    fakeCommunityApi({
      posts: [post('p1')],
      comments: { p1: [comment('mine', { author: ME, is_mine: true, created_at: ago(1) }), comment('theirs', { created_at: ago(2) })] },
    })
    renderModal()
    const mine = await screen.findByRole('article', { name: 'Comentário de Dra. Lia Prado' })
    expect(within(mine).getByRole('button', { name: 'Editar' })).toBeInTheDocument()
    expect(within(mine).getByRole('button', { name: 'Excluir' })).toBeInTheDocument()
    expect(within(mine).queryByRole('button', { name: 'Denunciar' })).toBeNull()
    const theirs = commentArticle('Bruno Souza')
    expect(within(theirs).queryByRole('button', { name: 'Editar' })).toBeNull()
    expect(within(theirs).queryByRole('button', { name: 'Excluir' })).toBeNull()
    expect(within(theirs).getByRole('button', { name: 'Denunciar' })).toBeInTheDocument()
  })

  it('saves an edit only when the trimmed text changed, then marks it editado', async () => {
    const api = fakeCommunityApi({ posts: [post('p1')], comments: { p1: [comment('c1', { author: ME, is_mine: true, content: 'Texto original' })] } })
    renderModal()
    const mine = await screen.findByRole('article', { name: 'Comentário de Dra. Lia Prado' })
    expect(within(mine).queryByText(/editado/)).toBeNull()

    // Same text with spaces around it: no request, back to reading.
    await userEvent.click(within(mine).getByRole('button', { name: 'Editar' }))
    const field = within(mine).getByLabelText('Editar comentário')
    await userEvent.type(field, '   ')
    await userEvent.click(within(mine).getByRole('button', { name: 'Salvar' }))
    expect(within(mine).queryByLabelText('Editar comentário')).toBeNull()
    expect(writes(api, 'PUT', /^\/api\/comments\/c1$/)).toHaveLength(0)

    // Cancel discards.
    await userEvent.click(within(mine).getByRole('button', { name: 'Editar' }))
    await userEvent.clear(within(mine).getByLabelText('Editar comentário'))
    await userEvent.type(within(mine).getByLabelText('Editar comentário'), 'Descartado')
    await userEvent.click(within(mine).getByRole('button', { name: 'Cancelar' }))
    expect(within(mine).getByText('Texto original')).toBeInTheDocument()

    // Blank is refused.
    await userEvent.click(within(mine).getByRole('button', { name: 'Editar' }))
    await userEvent.clear(within(mine).getByLabelText('Editar comentário'))
    await userEvent.click(within(mine).getByRole('button', { name: 'Salvar' }))
    expect(within(mine).getByRole('alert')).toHaveTextContent('O comentário não pode estar vazio')

    await userEvent.type(within(mine).getByLabelText('Editar comentário'), '  Texto corrigido  ')
    await userEvent.click(within(mine).getByRole('button', { name: 'Salvar' }))
    expect(await within(mine).findByText('Texto corrigido')).toBeInTheDocument()
    expect(writes(api, 'PUT', /^\/api\/comments\/c1$/).map((c) => c.body)).toEqual([{ content: 'Texto corrigido' }])
    expect(within(mine).getByText(/editado/)).toBeInTheDocument()
  })

  it("asks 'Excluir Comentário' before deleting", async () => {
    const api = fakeCommunityApi({ posts: [post('p1', { comments_count: 1 })], comments: { p1: [comment('c1', { author: ME, is_mine: true })] } })
    renderModal()
    const mine = await screen.findByRole('article', { name: 'Comentário de Dra. Lia Prado' })
    await userEvent.click(within(mine).getByRole('button', { name: 'Excluir' }))
    const confirm = screen.getByRole('dialog', { name: 'Excluir Comentário' })
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancelar' }))
    expect(writes(api, 'DELETE', /comments/)).toHaveLength(0)
    // Closing the confirmation leaves the comments modal open.
    expect(dialog()).toBeInTheDocument()

    await userEvent.click(within(mine).getByRole('button', { name: 'Excluir' }))
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Excluir Comentário' })).getByRole('button', { name: 'Excluir' }))
    expect(await screen.findByText('Comentário excluído')).toBeInTheDocument()
    expect(writes(api, 'DELETE', /^\/api\/comments\/c1$/)).toHaveLength(1)
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Comentário de Dra. Lia Prado' })).toBeNull())
  })

  it('sends on Enter, keeps Shift+Enter as a newline, and disables send while empty or sending', async () => {
    const api = fakeCommunityApi({ posts: [post('p1')], comments: { p1: [] } })
    renderModal()
    await screen.findByText('Nenhum comentário ainda. Seja o primeiro a comentar!')
    expect(sendButton()).toBeDisabled()
    await userEvent.type(composer(), '   ')
    expect(sendButton()).toBeDisabled()
    await userEvent.type(composer(), '{Enter}')
    expect(screen.getByRole('alert')).toHaveTextContent('O comentário não pode estar vazio')
    await userEvent.clear(composer())

    await userEvent.type(composer(), 'linha 1{Shift>}{Enter}{/Shift}linha 2')
    expect(composer()).toHaveValue('linha 1\nlinha 2')
    expect(writes(api, 'POST', /comments$/)).toHaveLength(0)
    expect(sendButton()).toBeEnabled()
    await userEvent.type(composer(), '{Enter}')
    await waitFor(() => expect(writes(api, 'POST', /comments$/)).toHaveLength(1))
    expect(writes(api, 'POST', /comments$/)[0]!.body).toEqual({ content: 'linha 1\nlinha 2' })
    expect(writes(api, 'POST', /comments$/)[0]!.headers['Idempotency-Key']).toBeTruthy()
    expect(await screen.findByRole('article', { name: 'Comentário de Dra. Lia Prado' })).toHaveTextContent(/linha 1\s+linha 2/)
    expect(composer()).toHaveValue('')
    expect(sendButton()).toBeDisabled()
  })

  it('isSendKey: Enter sends; Shift+Enter and composing text do not', () => {
    expect(isSendKey({ key: 'Enter', shiftKey: false })).toBe(true)
    expect(isSendKey({ key: 'Enter', shiftKey: true })).toBe(false)
    expect(isSendKey({ key: 'Enter', shiftKey: false, nativeEvent: { isComposing: true } })).toBe(false)
    expect(isSendKey({ key: 'a', shiftKey: false })).toBe(false)
  })

  it('keeps the text after a failed send and retries with the same idempotency key', async () => {
    let refuse = true
    const api = fakeCommunityApi(
      { posts: [post('p1')], comments: { p1: [] } },
      { fail: (c) => refuse && c.method === 'POST' && c.path.endsWith('/comments') && { status: 503, body: { error: { code: 'x', message: 'Indisponível' } } } },
    )
    renderModal({ noRetry: true })
    await userEvent.type(await screen.findByLabelText('Escreva um comentário'), 'Ótimo caso{Enter}')
    expect(await screen.findByText('Erro ao criar comentário. Tente novamente.')).toBeInTheDocument()
    expect(composer()).toHaveValue('Ótimo caso')
    refuse = false
    await userEvent.click(sendButton())
    await waitFor(() => expect(writes(api, 'POST', /comments$/)).toHaveLength(2))
    const [first, retry] = writes(api, 'POST', /comments$/)
    expect(retry!.headers['Idempotency-Key']).toBe(first!.headers['Idempotency-Key'])
  })

  it("shows 'Sem mídia' for a post without media", async () => {
    fakeCommunityApi({ posts: [post('p1')], comments: { p1: [] } })
    renderModal()
    expect(await within(await screen.findByTestId('comments-media')).findByText('Sem mídia')).toBeInTheDocument()
  })

  it("renders images, says 'Mídia não suportada' for other media, and moves through them", async () => {
    fakeCommunityApi({
      posts: [post('p1', { media: [media('m1'), media('v1', { media_type: 'video', mime_type: 'video/mp4' })] })],
      comments: { p1: [] },
    })
    renderModal()
    const carousel = await screen.findByRole('group', { name: 'Mídia da publicação' })
    expect(within(carousel).getByRole('img', { name: 'Imagem 1 de 2 da publicação de Ana Souza' })).toHaveAttribute('src', '/uploads/m1.jpg')
    await userEvent.click(within(carousel).getByRole('button', { name: 'Próxima mídia' }))
    expect(within(carousel).getByText('Mídia não suportada')).toBeInTheDocument()
    expect(within(carousel).queryByRole('img')).toBeNull()
    expect(within(carousel).getByText('2 / 2')).toBeInTheDocument()
    await userEvent.click(within(carousel).getByRole('button', { name: 'Mídia anterior' }))
    expect(within(carousel).getByRole('img')).toBeInTheDocument()
  })

  it("labels a comment without author 'Usuário VetClube' with a placeholder avatar", async () => {
    fakeCommunityApi({ posts: [post('p1')], comments: { p1: [comment('c1', { author: null })] } })
    renderModal()
    const orphan = await screen.findByRole('article', { name: 'Comentário de Usuário VetClube' })
    expect(within(orphan).getByText('Usuário VetClube')).toBeInTheDocument()
    expect(within(orphan).getByTestId('placeholder-avatar')).toBeInTheDocument()
    expect(within(orphan).queryByRole('link')).toBeNull()
  })

  it("shows 'Erro ao carregar comentários' when the list fails, and loads again on request", async () => {
    let refuse = true
    fakeCommunityApi(
      { posts: [post('p1')], comments: { p1: [comment('c1')] } },
      { fail: (c) => refuse && c.method === 'GET' && c.path.endsWith('/comments') && { status: 500, body: { error: { code: 'x', message: 'x' } } } },
    )
    renderModal({ noRetry: true })
    expect(await screen.findByText('Erro ao carregar comentários')).toBeInTheDocument()
    refuse = false
    await userEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }))
    expect(await screen.findByRole('article', { name: 'Comentário de Bruno Souza' })).toBeInTheDocument()
  })

  it('without a session: the composer says Faça login para comentar and a like asks to sign in', async () => {
    const api = fakeCommunityApi({ signedIn: false, posts: [post('p1')], comments: { p1: [comment('c1')] } })
    document.cookie = 'vc_csrf=; Path=/; Max-Age=0'
    renderModal()
    const article = await screen.findByRole('article', { name: 'Comentário de Bruno Souza' })
    expect(screen.getByRole('link', { name: 'Faça login para comentar' })).toHaveAttribute('href', '/login?redirect=%2Fcommunity')
    await userEvent.click(within(article).getByRole('button', { name: /^Curtir comentário/ }))
    expect(await screen.findByText('Você precisa estar logado para curtir comentários')).toBeInTheDocument()
    await userEvent.click(within(article).getByRole('button', { name: /^Não curtir comentário/ }))
    expect(await screen.findByText('Você precisa estar logado para não curtir comentários')).toBeInTheDocument()
    await userEvent.click(within(article).getByRole('button', { name: 'Responder' }))
    expect(await screen.findByText('Você precisa estar logado para comentar')).toBeInTheDocument()
    expect(writes(api, 'PUT', /reaction/)).toHaveLength(0)
  })

  it("says 'Usuário não autenticado. Por favor, faça login.' when the session is gone on a write", async () => {
    fakeCommunityApi(
      { posts: [post('p1')], comments: { p1: [comment('c1', { likes: 1 })] } },
      { fail: (c) => c.method === 'PUT' && c.path.endsWith('/reaction') && { status: 401, body: { error: { code: 'unauthenticated', message: 'Sessão expirada' } } } },
    )
    renderModal({ noRetry: true })
    const article = await screen.findByRole('article', { name: 'Comentário de Bruno Souza' })
    await userEvent.click(within(article).getByRole('button', { name: /^Curtir comentário/ }))
    expect(await screen.findByText('Usuário não autenticado. Por favor, faça login.')).toBeInTheDocument()
    await waitFor(() => expect(within(article).getByRole('button', { name: /^Curtir comentário/ })).toHaveTextContent('1'))
  })

  it('closes with the Fechar button', async () => {
    fakeCommunityApi({ posts: [post('p1')], comments: { p1: [] } })
    const { onClose } = renderModal()
    await userEvent.click(within(await screen.findByRole('dialog', { name: 'Comentários' })).getByRole('button', { name: 'Fechar' }))
    expect(onClose).toHaveBeenCalledTimes(1)
  })
})
