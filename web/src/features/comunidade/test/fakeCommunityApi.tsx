import { render } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router'
import { vi } from 'vitest'
import { AuthProvider } from '@/lib/session/AuthProvider'
import { Toaster } from '@/components/ui/Toaster'
import { createQueryClient } from '@/lib/queryClient'
import type { Author, Comment, Post, PostMedia } from '../api'

export const ME: Author = { id: 'me', first_name: 'Dra. Lia', last_name: 'Prado', avatar_url: null, title: 'Clínica geral', verified: true }

export function author(id: string, first: string, overrides: Partial<Author> = {}): Author {
  return { id, first_name: first, last_name: 'Souza', avatar_url: null, title: 'Médica-veterinária', verified: false, ...overrides }
}

export function media(id: string, overrides: Partial<PostMedia> = {}): PostMedia {
  return {
    id,
    media_type: 'image',
    url: `/uploads/${id}.jpg`,
    thumbnail_url: `/uploads/${id}-thumb.jpg`,
    width: 800,
    height: 600,
    file_name: `${id}.jpg`,
    file_size: 1000,
    mime_type: 'image/jpeg',
    ...overrides,
  }
}

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString()

export function post(id: string, overrides: Partial<Post> = {}): Post {
  return {
    id,
    author: author('u1', 'Ana'),
    content: `Publicação ${id}`,
    media: [],
    created_at: minutesAgo(5),
    edited_at: null,
    likes: 0,
    comments_count: 0,
    liked: false,
    is_mine: false,
    ...overrides,
  }
}

export function comment(id: string, overrides: Partial<Comment> = {}): Comment {
  return {
    id,
    item_id: 'p1',
    parent_id: null,
    author: author('u2', 'Bruno'),
    content: `Comentário ${id}`,
    created_at: minutesAgo(3),
    updated_at: minutesAgo(3),
    is_edited: false,
    likes: 0,
    dislikes: 0,
    is_liked: false,
    is_disliked: false,
    is_mine: false,
    replies: [],
    ...overrides,
  }
}

export interface Call {
  method: string
  path: string
  search: URLSearchParams
  body: unknown
  headers: Record<string, string>
}

interface State {
  /** Every post the reader may see, newest first ('Todos'). */
  posts: Post[]
  /** Ids of the posts on 'Minhas conexões'. */
  connections: string[]
  comments: Record<string, Comment[]>
  signedIn: boolean
  /** The people the reader blocked (GET /api/blocks). */
  blocked: { id: string; first_name: string; last_name: string }[]
}

type Reply = { status: number; body?: unknown }

const json = ({ status, body }: Reply) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

function headersOf(init?: RequestInit): Record<string, string> {
  const h = init?.headers
  if (!h) return {}
  if (h instanceof Headers) return Object.fromEntries(h.entries())
  return { ...(h as Record<string, string>) }
}

/** One upload seen by the fake XMLHttpRequest; the test drives its progress and answer. */
export interface PendingUpload {
  file: File
  headers: Record<string, string>
  withCredentials: boolean
  progress: (loaded: number, total: number) => void
  respond: (status: number, body: unknown) => void
}

/**
 * The community endpoints over in-memory state, at the network layer (fetch,
 * and XMLHttpRequest for uploads), so hooks, apiFetch and components run as in
 * the app. `fail` answers matching calls with `failWith` (500 by default).
 */
export function fakeCommunityApi(
  initial: Partial<State> = {},
  options: { fail?: (c: Call) => Reply | undefined | false; other?: (c: Call) => Reply | undefined } = {},
) {
  const state: State = { posts: [], connections: [], comments: {}, signedIn: true, blocked: [], ...structuredClone(initial) }
  const calls: Call[] = []
  const uploads: PendingUpload[] = []
  let next = 1

  const findComment = (id: string) => {
    for (const list of Object.values(state.comments)) {
      for (const c of list) {
        if (c.id === id) return c
        const r = c.replies.find((x) => x.id === id)
        if (r) return r
      }
    }
    return undefined
  }

  const handle = (call: Call): Reply => {
    const { method, path: p, search, body } = call
    if (method === 'GET' && p === '/api/auth/session') {
      return state.signedIn
        ? { status: 200, body: { user: { id: ME.id, email: 'lia@vetclube.dev', provider: 'email', roles: ['user'], created_at: minutesAgo(1000) } } }
        : { status: 401, body: { error: { code: 'unauthenticated', message: 'Usuário não autenticado. Por favor, faça login.' } } }
    }
    if (method === 'GET' && p === '/api/connections/suggestions') return { status: 200, body: { suggestions: [] } }
    if (method === 'GET' && p === '/api/community/feed') {
      const tab = search.get('tab')
      const authorId = search.get('author')
      let list = tab === 'conexoes' ? state.posts.filter((x) => state.connections.includes(x.id)) : state.posts
      if (authorId) list = list.filter((x) => x.author?.id === authorId)
      const start = Number(search.get('cursor') ?? 0)
      const limit = Number(search.get('limit') ?? 20)
      const items = list.slice(start, start + limit)
      return { status: 200, body: { items, next_cursor: start + limit < list.length ? String(start + limit) : null } }
    }
    let m = p.match(/^\/api\/community\/posts\/([^/]+)$/)
    if (m && method === 'GET') {
      const found = state.posts.find((x) => x.id === m![1])
      return found ? { status: 200, body: found } : { status: 404, body: { error: { code: 'not_found', message: 'Publicação não encontrada' } } }
    }
    if (method === 'POST' && p === '/api/community/posts') {
      const key = call.headers['Idempotency-Key']
      const again = state.posts.find((x) => (x as Post & { key?: string }).key === key)
      if (again) return { status: 200, body: again }
      const { content, media_ids } = body as { content: string; media_ids: string[] }
      const created = { ...post(`new-${next++}`, { author: ME, is_mine: true, content, media: media_ids.map((id) => media(id)) }), created_at: new Date().toISOString() }
      state.posts.unshift({ ...created, key } as Post)
      return { status: 201, body: created }
    }
    if (m && method === 'PUT') {
      const i = state.posts.findIndex((x) => x.id === m![1])
      state.posts[i] = { ...state.posts[i]!, content: (body as { content: string }).content, edited_at: new Date().toISOString() }
      return { status: 200, body: state.posts[i] }
    }
    if (m && method === 'DELETE') {
      state.posts = state.posts.filter((x) => x.id !== m![1])
      return { status: 204 }
    }
    m = p.match(/^\/api\/community\/posts\/([^/]+)\/like$/)
    if (m) {
      const target = state.posts.find((x) => x.id === m![1])!
      const liked = method === 'PUT'
      if (target.liked !== liked) target.likes += liked ? 1 : -1
      target.liked = liked
      return { status: 200, body: { likes: target.likes, liked } }
    }
    m = p.match(/^\/api\/community\/posts\/([^/]+)\/resposta-aceita$/)
    if (m) {
      const target = state.posts.find((x) => x.id === m![1])!
      target.accepted_comment_id = method === 'PUT' ? (body as { comment_id: string }).comment_id : null
      return { status: 200, body: { post_id: target.id, accepted_comment_id: target.accepted_comment_id } }
    }
    m = p.match(/^\/api\/community\/posts\/([^/]+)\/comments$/)
    if (m && method === 'GET') return { status: 200, body: { items: state.comments[m[1]!] ?? [] } }
    if (m && method === 'POST') {
      const { content, parent_id } = body as { content: string; parent_id?: string }
      const created = comment(`c-new-${next++}`, { item_id: m[1]!, parent_id: parent_id ?? null, author: ME, is_mine: true, content, created_at: new Date().toISOString() })
      const list = (state.comments[m[1]!] ??= [])
      if (parent_id) list.find((c) => c.id === parent_id)!.replies.push(created)
      else list.unshift(created)
      return { status: 201, body: created }
    }
    m = p.match(/^\/api\/comments\/([^/]+)\/reaction$/)
    if (m && method === 'PUT') {
      const c = findComment(m[1]!)!
      const reaction = (body as { reaction: string }).reaction
      if (c.is_liked) c.likes--
      if (c.is_disliked) c.dislikes--
      c.is_liked = reaction === 'like'
      c.is_disliked = reaction === 'dislike'
      if (c.is_liked) c.likes++
      if (c.is_disliked) c.dislikes++
      return { status: 200, body: { likes: c.likes, dislikes: c.dislikes, is_liked: c.is_liked, is_disliked: c.is_disliked } }
    }
    m = p.match(/^\/api\/comments\/([^/]+)$/)
    if (m && method === 'PUT') {
      const c = findComment(m[1]!)!
      c.content = (body as { content: string }).content
      c.is_edited = true
      return { status: 200, body: { ...c, replies: [] } }
    }
    if (m && method === 'DELETE') {
      for (const [postId, list] of Object.entries(state.comments)) {
        state.comments[postId] = list.filter((c) => c.id !== m![1]).map((c) => ({ ...c, replies: c.replies.filter((r) => r.id !== m![1]) }))
      }
      return { status: 204 }
    }
    if (method === 'POST' && p === '/api/reports') return { status: 201, body: { hidden: false } }
    if (method === 'GET' && p === '/api/blocks') return { status: 200, body: { blocked: state.blocked } }
    if (method === 'POST' && p === '/api/blocks') {
      const id = (body as { user_id: string }).user_id
      if (!state.blocked.some((b) => b.id === id)) state.blocked.unshift({ id, first_name: '', last_name: '' })
      return { status: 200, body: { status: 'blocked' } }
    }
    m = p.match(/^\/api\/blocks\/([^/]+)$/)
    if (m && method === 'DELETE') {
      state.blocked = state.blocked.filter((b) => b.id !== m![1])
      return { status: 200, body: { status: 'none' } }
    }
    return options.other?.(call) ?? { status: 404, body: { error: { code: 'not_found', message: 'não encontrado' } } }
  }

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost')
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      search: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: headersOf(init),
    }
    calls.push(call)
    const failure = options.fail?.(call)
    if (failure) return json(failure)
    return json(handle(call))
  })
  vi.stubGlobal('fetch', fetchMock)

  class FakeXHR {
    upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null }
    onload: (() => void) | null = null
    onerror: (() => void) | null = null
    onabort: (() => void) | null = null
    withCredentials = false
    status = 0
    responseText = ''
    private method = 'GET'
    private path = ''
    private headers: Record<string, string> = {}
    open(method: string, path: string) {
      this.method = method
      this.path = path
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value
    }
    abort() {
      this.onabort?.()
    }
    send(payload: FormData | null) {
      const file = payload?.get('file') as File
      calls.push({ method: this.method, path: this.path, search: new URLSearchParams(), body: file?.name, headers: this.headers })
      uploads.push({
        file,
        headers: this.headers,
        withCredentials: this.withCredentials,
        progress: (loaded, total) => this.upload.onprogress?.({ lengthComputable: true, loaded, total }),
        respond: (status, body) => {
          this.status = status
          this.responseText = JSON.stringify(body)
          this.onload?.()
        },
      })
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXHR)

  return { state, calls, uploads }
}

/**
 * Renders `routes` at `path` inside the app's providers (the app's query
 * client; `noRetry` drops its retries so a failure shows at once), with the
 * page's Toaster.
 */
export function renderRoutes(routes: RouteObject[], path: string, { noRetry = false } = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  const client = createQueryClient()
  if (noRetry) {
    const d = client.getDefaultOptions()
    client.setDefaultOptions({ queries: { ...d.queries, retry: false }, mutations: { ...d.mutations, retry: false } })
  }
  render(
    <QueryClientProvider client={client}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
      <Toaster />
    </QueryClientProvider>,
  )
  return router
}

/** jsdom has no <dialog> modal methods, no IntersectionObserver and no object URLs. */
export function installBrowserGaps() {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true
  }
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false
    this.dispatchEvent(new Event('close'))
  }
  URL.createObjectURL ??= () => 'blob:preview'
  URL.revokeObjectURL ??= () => undefined
  // The session check runs only when the CSRF cookie exists.
  document.cookie = 'vc_csrf=tok123; Path=/'
}
