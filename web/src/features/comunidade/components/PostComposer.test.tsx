import { act, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { dismissToast } from '@/components/ui/toast'
import { fakeCommunityApi, installBrowserGaps, media, renderRoutes } from '../test/fakeCommunityApi'
import { PostComposer } from './PostComposer'

const image = (name: string, type = 'image/jpeg', size = 1000) => new File([new Uint8Array(size)], name, { type })

function renderComposer() {
  return renderRoutes([{ path: '/', element: <PostComposer /> }], '/', { noRetry: true })
}

const publish = () => screen.getByRole('button', { name: 'Publicar' })
const posts = (calls: ReturnType<typeof fakeCommunityApi>['calls']) => calls.filter((c) => c.method === 'POST' && c.path === '/api/community/posts')

beforeEach(installBrowserGaps)
afterEach(() => {
  vi.unstubAllGlobals()
  dismissToast()
})

describe('PostComposer', () => {
  it('uploads each image with a progress bar, then publishes text and media in order', async () => {
    const api = fakeCommunityApi()
    renderComposer()
    expect(publish()).toBeDisabled()
    await userEvent.type(screen.getByLabelText('Escreva sua publicação'), 'Caso de **dermatite**')
    expect(publish()).toBeEnabled()

    await userEvent.upload(screen.getByLabelText('Adicionar imagens'), [image('a.jpg'), image('b.png', 'image/png')])
    expect(api.uploads).toHaveLength(2)
    // The upload goes through XMLHttpRequest with the session cookie and the CSRF header.
    expect(api.uploads[0]!.withCredentials).toBe(true)
    expect(api.uploads[0]!.headers['X-CSRF-Token']).toBe('tok123')
    expect(api.calls.filter((c) => c.path === '/api/community/uploads').map((c) => c.body)).toEqual(['a.jpg', 'b.png'])
    const list = screen.getByRole('list', { name: 'Imagens selecionadas' })
    expect(within(list).getByRole('img', { name: 'Pré-visualização de a.jpg' })).toBeInTheDocument()

    act(() => api.uploads[0]!.progress(40, 100))
    expect(screen.getByRole('progressbar', { name: 'Envio de a.jpg' })).toHaveAttribute('aria-valuenow', '40')
    expect(screen.getByRole('progressbar', { name: 'Envio de b.png' })).toHaveAttribute('aria-valuenow', '0')
    // Nothing is published while an image is still on its way.
    expect(publish()).toBeDisabled()

    act(() => api.uploads[1]!.respond(201, media('m-b')))
    act(() => api.uploads[0]!.respond(201, media('m-a')))
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull())
    await userEvent.click(publish())

    expect(await screen.findByText('Publicação criada!')).toBeInTheDocument()
    const [sent] = posts(api.calls)
    // Media ids keep the order the images were chosen in, not the order the uploads finished.
    expect(sent!.body).toEqual({ content: 'Caso de **dermatite**', media_ids: ['m-a', 'm-b'] })
    expect(sent!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/)
    expect(screen.getByLabelText('Escreva sua publicação')).toHaveValue('')
    expect(screen.queryByRole('list', { name: 'Imagens selecionadas' })).toBeNull()
  })

  it('accepts at most 10 images', async () => {
    const api = fakeCommunityApi()
    renderComposer()
    const files = Array.from({ length: 12 }, (_, i) => image(`f${i}.jpg`))
    await userEvent.upload(screen.getByLabelText('Adicionar imagens'), files)
    expect(screen.getByRole('alert')).toHaveTextContent('Máximo de 10 imagens por publicação')
    expect(within(screen.getByRole('list', { name: 'Imagens selecionadas' })).getAllByRole('listitem')).toHaveLength(10)
    expect(api.uploads).toHaveLength(10)
    expect(screen.getByLabelText('Adicionar imagens')).toBeDisabled()

    await userEvent.click(screen.getByRole('button', { name: 'Remover f3.jpg' }))
    expect(within(screen.getByRole('list', { name: 'Imagens selecionadas' })).getAllByRole('listitem')).toHaveLength(9)
    expect(screen.getByLabelText('Adicionar imagens')).toBeEnabled()
    await userEvent.upload(screen.getByLabelText('Adicionar imagens'), [image('x.jpg'), image('y.jpg')])
    expect(within(screen.getByRole('list', { name: 'Imagens selecionadas' })).getAllByRole('listitem')).toHaveLength(10)
    expect(api.uploads).toHaveLength(11)
  })

  it('refuses other file types and images over 10 MB before uploading', async () => {
    const api = fakeCommunityApi()
    renderComposer()
    const user = userEvent.setup({ applyAccept: false })
    await user.upload(screen.getByLabelText('Adicionar imagens'), [image('laudo.pdf', 'application/pdf')])
    expect(screen.getByRole('alert')).toHaveTextContent('Envie uma imagem JPG, PNG, WebP ou GIF.')
    await user.upload(screen.getByLabelText('Adicionar imagens'), [image('grande.jpg', 'image/jpeg', 10 * 1024 * 1024 + 1)])
    expect(screen.getByRole('alert')).toHaveTextContent('A imagem deve ter no máximo 10 MB.')
    expect(api.uploads).toHaveLength(0)
  })

  it("shows the server's refusal of an image and lets it be sent again", async () => {
    const api = fakeCommunityApi()
    renderComposer()
    await userEvent.upload(screen.getByLabelText('Adicionar imagens'), [image('a.jpg')])
    act(() => api.uploads[0]!.respond(422, { error: { code: 'invalid', message: 'Envie uma imagem JPG, PNG, WebP ou GIF.' } }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Envie uma imagem JPG, PNG, WebP ou GIF.')
    expect(publish()).toBeDisabled()
    await userEvent.click(screen.getByRole('button', { name: 'Enviar novamente a.jpg' }))
    expect(api.uploads).toHaveLength(2)
    act(() => api.uploads[1]!.respond(201, media('m-a')))
    await waitFor(() => expect(publish()).toBeEnabled())
  })

  it('reuses the idempotency key when the same draft is sent again, and starts a new one for a new draft', async () => {
    let refuse = true
    const api = fakeCommunityApi(
      {},
      {
        fail: (c) =>
          c.method === 'POST' && c.path === '/api/community/posts' && refuse
            ? { status: 429, body: { error: { code: 'rate_limited', message: 'Você está publicando rápido demais. Aguarde um momento.' } } }
            : false,
      },
    )
    renderComposer()
    await userEvent.type(screen.getByLabelText('Escreva sua publicação'), 'Plantão tranquilo hoje')
    await userEvent.click(publish())
    expect(await screen.findByRole('alert')).toHaveTextContent('Você está publicando rápido demais. Aguarde um momento.')
    // The draft stays for the retry.
    expect(screen.getByLabelText('Escreva sua publicação')).toHaveValue('Plantão tranquilo hoje')

    refuse = false
    await userEvent.click(publish())
    expect(await screen.findByText('Publicação criada!')).toBeInTheDocument()
    const [first, retry] = posts(api.calls)
    expect(retry!.headers['Idempotency-Key']).toBe(first!.headers['Idempotency-Key'])

    await userEvent.type(screen.getByLabelText('Escreva sua publicação'), 'Outro assunto')
    await userEvent.click(publish())
    await waitFor(() => expect(posts(api.calls)).toHaveLength(3))
    expect(posts(api.calls)[2]!.headers['Idempotency-Key']).not.toBe(first!.headers['Idempotency-Key'])
  })

  it('sends a double click once', async () => {
    const api = fakeCommunityApi()
    renderComposer()
    await userEvent.type(screen.getByLabelText('Escreva sua publicação'), 'Uma vez só')
    await userEvent.dblClick(publish())
    expect(await screen.findByText('Publicação criada!')).toBeInTheDocument()
    const sent = posts(api.calls)
    // At most one request; if a second slipped through, it carries the same key and the server answers the same post.
    expect(new Set(sent.map((c) => c.headers['Idempotency-Key'])).size).toBe(1)
    expect(api.state.posts).toHaveLength(1)
  })
})
