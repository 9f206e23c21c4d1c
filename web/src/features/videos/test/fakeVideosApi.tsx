import { vi } from 'vitest'
import type { Span } from '@/components/player/types'
import { mergeSpans } from '@/components/player/tracker'
import type { VideoCard, VideoCategory, VideoDetail } from '../api'

// The videos API (core/videos) over in-memory state, at the
// network layer (fetch), so hooks, apiFetch and pages run as in the app.

export type FakeVideo = VideoCard & Partial<Omit<VideoDetail, keyof VideoCard>>

export function video(id: string, overrides: Partial<FakeVideo> = {}): FakeVideo {
  return {
    id,
    slug: id,
    title: `Vídeo ${id}`,
    description: `Sobre o vídeo ${id}`,
    thumbnail: null,
    category: { id: 'cat-clinica', name: 'Clínica' },
    duration: '10min',
    duration_seconds: 600,
    difficulty: 'Iniciante',
    instructor: 'Dra. Ana Lima',
    tags: [],
    video_source: 'stream',
    views: 0,
    likes: 0,
    published_at: '2026-01-01T12:00:00Z',
    is_favorite: false,
    user_liked: false,
    is_completed: false,
    completed_at: null,
    progress: 0,
    locked: false,
    video: { source: 'stream', url: `/media/${id}.mp4`, embed_url: null, hls: false },
    position_seconds: 0,
    watched: [],
    resume_at: 0,
    last_watched_at: null,
    ...overrides,
  }
}

export interface Call {
  method: string
  path: string
  search: URLSearchParams
  body: unknown
}

interface State {
  videos: FakeVideo[]
  categories: VideoCategory[]
  signedIn: boolean
  /** Premium or an active trial: without it cards come locked and the player answers 403. */
  access: boolean
}

type Reply = { status: number; body?: unknown }

const json = ({ status, body }: Reply) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

const err = (status: number, code: string, message: string, fields?: Record<string, string>): Reply => ({ status, body: { error: { code, message, fields } } })

export const failWith = (status = 500): Reply => err(status, 'internal', 'Erro interno.')

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

export function fakeVideosApi(
  initial: Partial<State> = {},
  options: {
    fail?: (c: Call) => Reply | undefined | false
    /** Held answers: the request waits for the promise (a request in flight). */
    hold?: (c: Call) => Promise<void> | undefined
  } = {},
) {
  const state: State = { videos: [], categories: [], signedIn: true, access: true, ...structuredClone(initial) }
  const calls: Call[] = []
  const find = (id: string) => state.videos.find((v) => v.id === id || v.slug === id)

  const card = (v: FakeVideo): VideoCard => {
    const { video: _v, position_seconds: _p, watched: _w, resume_at: _r, last_watched_at: _l, ...rest } = v
    return { ...rest, locked: !state.access }
  }
  const detail = (v: FakeVideo): VideoDetail => ({ ...(v as VideoDetail), locked: false })
  const denied = () => err(403, 'forbidden', 'Este vídeo é exclusivo para assinantes Premium. Assine para continuar.', { access: 'premium_required' })

  const handle = (call: Call): Reply => {
    const { method, path: p, search, body } = call
    if (method === 'GET' && p === '/api/auth/session') {
      return state.signedIn
        ? { status: 200, body: { user: { id: 'me', email: 'lia@vetclube.dev', provider: 'email', roles: ['user'], created_at: '2026-01-01T00:00:00Z' } } }
        : err(401, 'unauthorized', 'Usuário não autenticado')
    }
    if (!state.signedIn) return err(401, 'unauthorized', 'Usuário não autenticado')
    if (method === 'GET' && p === '/api/videos') {
      let list = [...state.videos].sort((a, b) => b.published_at.localeCompare(a.published_at))
      const category = search.get('category')
      const q = search.get('q')
      if (category && category !== 'Todos' && category !== 'all') list = list.filter((v) => v.category?.id === category)
      if (search.get('favorites') === 'true') list = list.filter((v) => v.is_favorite)
      if (search.get('completed') === 'true') list = list.filter((v) => v.is_completed)
      if (q) list = list.filter((v) => fold(`${v.title} ${v.description} ${v.instructor} ${v.tags.join(' ')}`).includes(fold(q)))
      const page = Number(search.get('page') ?? 1)
      if (!Number.isInteger(page) || page < 1) return err(422, 'invalid', 'Página inválida.', { page: 'Página inválida.' })
      // 8 first, then 4 at offset 8+(page−2)×4.
      const size = page === 1 ? 8 : 4
      const offset = page === 1 ? 0 : 8 + (page - 2) * 4
      const items = list.slice(offset, offset + size)
      return { status: 200, body: { videos: items.map(card), page, page_size: size, has_more: list.length > offset + size } }
    }
    if (method === 'GET' && p === '/api/videos/categorias') return { status: 200, body: { categories: state.categories } }
    if (method === 'GET' && p === '/api/videos/estatisticas') {
      const total = state.videos.length
      const completed = state.videos.filter((v) => v.is_completed).length
      return {
        status: 200,
        body: {
          total_videos: total,
          completed_videos: completed,
          favorite_videos: state.videos.filter((v) => v.is_favorite).length,
          progress_percentage: total ? Math.round((100 * completed) / total) : 0,
          total_hours_content: Math.round((state.videos.reduce((s, v) => s + v.duration_seconds, 0) / 3600) * 10) / 10,
        },
      }
    }
    if (method === 'GET' && p === '/api/videos/ultimo') {
      const newest = [...state.videos].sort((a, b) => b.published_at.localeCompare(a.published_at))[0]
      return { status: 200, body: { video: newest ? card(newest) : null } }
    }
    const m = p.match(/^\/api\/videos\/([^/]+)(?:\/(.*))?$/)
    if (m) {
      const v = find(decodeURIComponent(m[1]!))
      if (!v) return err(404, 'not_found', 'Vídeo não encontrado.')
      const rest = m[2] ?? ''
      if (method === 'POST' && rest === 'favorito') {
        v.is_favorite = !v.is_favorite
        return { status: 200, body: { is_favorite: v.is_favorite, message: v.is_favorite ? 'Vídeo adicionado aos favoritos' : 'Vídeo removido dos favoritos' } }
      }
      if (!state.access) return denied()
      if (method === 'GET' && rest === '') return { status: 200, body: detail(v) }
      if (method === 'POST' && rest === 'curtida') {
        v.user_liked = !v.user_liked
        v.likes = Math.max(0, v.likes + (v.user_liked ? 1 : -1))
        return { status: 200, body: { user_liked: v.user_liked, likes: v.likes } }
      }
      if (method === 'POST' && rest === 'visualizacao') {
        v.views += 1
        return { status: 200, body: { counted: true, views: v.views } }
      }
      if (method === 'PUT' && rest === 'concluido') {
        const done = (body as { completed: boolean }).completed
        v.is_completed = done
        v.completed_at = done ? '2026-11-25T10:00:00Z' : null
        return { status: 200, body: { is_completed: v.is_completed, completed_at: v.completed_at, message: done ? 'Vídeo marcado como concluído' : 'Vídeo desmarcado como concluído' } }
      }
      if (method === 'PUT' && rest === 'progresso') {
        const b = body as { position_seconds: number; duration_seconds: number; watched: Span[] }
        v.position_seconds = b.position_seconds
        v.watched = mergeSpans([...(v.watched ?? []), ...b.watched])
        const total = b.duration_seconds || v.duration_seconds
        const seen = v.watched.reduce((s, [a, e]) => s + e - a, 0)
        v.progress = total ? Math.min(100, Math.floor((100 * seen) / total)) : 0
        const just = !v.is_completed && total > 0 && seen >= 0.9 * total
        if (just) v.is_completed = true
        return {
          status: 200,
          body: { video_id: v.id, position_seconds: v.position_seconds, watched: v.watched, progress: v.progress, is_completed: v.is_completed, completed_at: v.completed_at, just_completed: just, resume_at: v.position_seconds },
        }
      }
    }
    return err(404, 'not_found', 'não encontrado')
  }

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost')
    const call: Call = { method: init?.method ?? 'GET', path: url.pathname, search: url.searchParams, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined }
    calls.push(call)
    await options.hold?.(call)
    const failure = options.fail?.(call)
    if (failure) return json(failure)
    return json(handle(call))
  })
  vi.stubGlobal('fetch', fetchMock)
  return { state, calls }
}

/** A promise the test resolves: a request held in flight. */
export function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => (resolve = r))
  return { promise, resolve }
}
