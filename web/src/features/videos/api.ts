import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query'
import { ApiError, apiFetch } from '@/lib/api'
import { queryKeys } from '@/lib/queryKeys'
import { toast } from '@/components/ui/toast'
import type { LessonVideo, Span } from '@/components/player/types'
import type { WatchReport } from '@/components/player/useWatchReporter'
import { messages } from './messages'

// Shapes of the exclusive videos API (core/videos; core/httpapi/openapi.json): /api/videos/...

export type VideoSource = 'youtube' | 'vimeo' | 'stream'

export interface VideoCategory {
  id: string
  name: string
}

export interface VideoCard {
  id: string
  slug: string
  title: string
  description: string
  thumbnail: string | null
  category: VideoCategory | null
  duration: string
  duration_seconds: number
  difficulty: string
  instructor: string
  tags: string[]
  video_source: VideoSource
  views: number
  likes: number
  published_at: string
  is_favorite: boolean
  user_liked: boolean
  is_completed: boolean
  completed_at: string | null
  progress: number
  /** The reader has no access: Premium badge, and the invitation when opened. */
  locked: boolean
}

export interface VideoList {
  videos: VideoCard[]
  page: number
  page_size: number
  has_more: boolean
}

export interface VideoStatistics {
  total_videos: number
  completed_videos: number
  favorite_videos: number
  progress_percentage: number
  total_hours_content: number
}

export interface VideoDetail extends VideoCard {
  video: LessonVideo
  position_seconds: number
  watched: Span[]
  /** Where the player starts (0 under 5 % or over 90 % watched). */
  resume_at: number
  last_watched_at: string | null
}

export interface VideoProgress {
  video_id: string
  position_seconds: number
  watched: Span[]
  progress: number
  is_completed: boolean
  completed_at: string | null
  just_completed: boolean
  resume_at: number
}

export interface VideoQuery {
  category: string
  q: string
  favorites: boolean
  completed: boolean
}

export const emptyQuery: VideoQuery = { category: '', q: '', favorites: false, completed: false }

export function hasFilters(q: VideoQuery): boolean {
  return !!(q.category || q.q || q.favorites || q.completed)
}

/** The first page holds 8 videos, every later one 4 (offset 8+(page−2)×4, computed by the server from page). */
export const FIRST_PAGE_SIZE = 8
export const NEXT_PAGE_SIZE = 4

export function listURL(q: VideoQuery, page: number): string {
  const p = new URLSearchParams()
  if (q.category) p.set('category', q.category)
  if (q.q) p.set('q', q.q)
  if (q.favorites) p.set('favorites', 'true')
  if (q.completed) p.set('completed', 'true')
  p.set('page', String(page))
  return `/api/videos?${p}`
}

const enc = encodeURIComponent

// Every key lives under queryKeys.videos: invalidating it refreshes the feature.
export const videoKeys = {
  all: queryKeys.videos,
  lists: [...queryKeys.videos, 'list'] as const,
  list: (q: VideoQuery) => [...queryKeys.videos, 'list', q.category, q.q, q.favorites, q.completed] as const,
  categories: [...queryKeys.videos, 'categories'] as const,
  stats: [...queryKeys.videos, 'stats'] as const,
  latest: [...queryKeys.videos, 'latest'] as const,
  details: [...queryKeys.videos, 'detail'] as const,
  detail: (id: string) => [...queryKeys.videos, 'detail', id] as const,
}

/** The message for a failed read: 'Erro ao carregar vídeos' for the API's answers, 'Erro desconhecido' for anything else. */
export function loadFailure(err: unknown): string {
  return err instanceof ApiError ? messages.loadFailed : messages.unknown
}

export function isPremiumRequired(err: unknown): boolean {
  return err instanceof ApiError && err.status === 403
}

export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404
}

/** The API's pt-BR reason for a 4xx, else the action's own message. */
export function failureMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.message) return err.message
  return fallback
}

/** The library: 8 videos, then 4 at a time, while the server says another page exists. */
export function useVideoList(q: VideoQuery) {
  return useInfiniteQuery({
    queryKey: videoKeys.list(q),
    queryFn: ({ pageParam, signal }) => apiFetch<VideoList>(listURL(q, pageParam), { signal }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.has_more ? last.page + 1 : undefined),
  })
}

export function useVideoCategories() {
  return useQuery({
    queryKey: videoKeys.categories,
    queryFn: ({ signal }) => apiFetch<{ categories: VideoCategory[] }>('/api/videos/categorias', { signal }).then((r) => r.categories),
    staleTime: 30 * 60_000,
  })
}

export function useVideoStatistics() {
  return useQuery({
    queryKey: videoKeys.stats,
    queryFn: ({ signal }) => apiFetch<VideoStatistics>('/api/videos/estatisticas', { signal }),
  })
}

/** The home card: the newest published video, or null. */
export function useLatestVideo() {
  return useQuery({
    queryKey: videoKeys.latest,
    queryFn: ({ signal }) => apiFetch<{ video: VideoCard | null }>('/api/videos/ultimo', { signal }).then((r) => r.video),
  })
}

export function useVideo(id: string) {
  return useQuery({
    queryKey: videoKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<VideoDetail>(`/api/videos/${enc(id)}`, { signal }),
    // The player resumes from the saved position, which another device may have moved.
    staleTime: 0,
    gcTime: 0,
    // A 403 (Premium) or 404 is an answer, not a hiccup.
    retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
    enabled: !!id,
  })
}

type ListData = InfiniteData<VideoList, number>

/** Applies fn to the video wherever it is cached: every list page, the player and the home card. */
export function patchVideo(qc: QueryClient, id: string, fn: <T extends VideoCard>(v: T) => T): void {
  qc.setQueriesData<ListData>({ queryKey: videoKeys.lists }, (old) =>
    old ? { ...old, pages: old.pages.map((p) => ({ ...p, videos: p.videos.map((v) => (v.id === id ? fn(v) : v)) })) } : old,
  )
  qc.setQueriesData<VideoDetail>({ queryKey: videoKeys.details }, (old) => (old && old.id === id ? fn(old) : old))
  qc.setQueryData<VideoCard | null>(videoKeys.latest, (old) => (old && old.id === id ? fn(old) : old))
}

function findCached(qc: QueryClient, id: string): VideoCard | undefined {
  for (const [, data] of qc.getQueriesData<VideoDetail>({ queryKey: videoKeys.details })) {
    if (data?.id === id) return data
  }
  for (const [, data] of qc.getQueriesData<ListData>({ queryKey: videoKeys.lists })) {
    const found = data?.pages.flatMap((p) => p.videos).find((v) => v.id === id)
    if (found) return found
  }
  const latest = qc.getQueryData<VideoCard | null>(videoKeys.latest)
  return latest?.id === id ? latest : undefined
}

/**
 * Like toggle: shown at once, the count never below 0, settled by
 * the server's answer, rolled back with 'Erro ao atualizar curtida'. The
 * server toggles, so no retries; the button ignores clicks while one is in flight.
 */
export function useToggleLike(id: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationKey: [...videoKeys.all, 'like', id],
    retry: false,
    mutationFn: () => apiFetch<{ user_liked: boolean; likes: number }>(`/api/videos/${enc(id)}/curtida`, { method: 'POST' }),
    onMutate: () => {
      const v = findCached(qc, id)
      const before = v ? { user_liked: v.user_liked, likes: v.likes } : undefined
      patchVideo(qc, id, (x) => ({ ...x, user_liked: !x.user_liked, likes: Math.max(0, x.likes + (x.user_liked ? -1 : 1)) }))
      return { before }
    },
    onSuccess: (a) => patchVideo(qc, id, (x) => ({ ...x, user_liked: a.user_liked, likes: Math.max(0, a.likes) })),
    onError: (err, _v, ctx) => {
      if (ctx?.before) patchVideo(qc, id, (x) => ({ ...x, ...ctx.before }))
      toast.error(failureMessage(err, messages.likeFailed))
    },
  })
}

/** Favorite toggle: as the like, with 'Erro ao atualizar favorito'. */
export function useToggleFavorite(id: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationKey: [...videoKeys.all, 'favorite', id],
    retry: false,
    mutationFn: () => apiFetch<{ is_favorite: boolean; message: string }>(`/api/videos/${enc(id)}/favorito`, { method: 'POST' }),
    onMutate: () => {
      const before = findCached(qc, id)?.is_favorite
      patchVideo(qc, id, (x) => ({ ...x, is_favorite: !x.is_favorite }))
      return { before }
    },
    onSuccess: (a) => {
      patchVideo(qc, id, (x) => ({ ...x, is_favorite: a.is_favorite }))
      void qc.invalidateQueries({ queryKey: videoKeys.stats })
      // The 'Apenas favoritos' list gains or loses it on its next read, not under the reader's cursor.
      void qc.invalidateQueries({ queryKey: videoKeys.lists, predicate: (q) => q.queryKey[4] === true, refetchType: 'none' })
    },
    onError: (err, _v, ctx) => {
      if (ctx?.before !== undefined) patchVideo(qc, id, (x) => ({ ...x, is_favorite: ctx.before! }))
      toast.error(failureMessage(err, messages.favoriteFailed))
    },
  })
}

/** 'Marcar como concluído' / 'Desmarcar': idempotent on the server (sets / clears completed_at). */
export function useSetCompleted(id: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationKey: [...videoKeys.all, 'complete', id],
    mutationFn: (completed: boolean) =>
      apiFetch<{ is_completed: boolean; completed_at: string | null; message: string }>(`/api/videos/${enc(id)}/concluido`, {
        method: 'PUT',
        body: { completed },
      }),
    onSuccess: (a) => {
      patchVideo(qc, id, (x) => ({ ...x, is_completed: a.is_completed, completed_at: a.completed_at }))
      void qc.invalidateQueries({ queryKey: videoKeys.stats })
      void qc.invalidateQueries({ queryKey: videoKeys.lists, predicate: (q) => q.queryKey[5] === true, refetchType: 'none' })
    },
    onError: (err) => toast.error(failureMessage(err, messages.completeFailed)),
  })
}

/** PUT …/progresso (keepalive when leaving); the answer updates the cards and the player. */
export function saveVideoProgress(qc: QueryClient, id: string, report: WatchReport, leaving: boolean): Promise<VideoProgress> {
  return apiFetch<VideoProgress>(`/api/videos/${enc(id)}/progresso`, { method: 'PUT', body: report, keepalive: leaving }).then((a) => {
    patchVideo(qc, id, (x) => ({ ...x, progress: a.progress, is_completed: a.is_completed, completed_at: a.completed_at }))
    if (a.just_completed) void qc.invalidateQueries({ queryKey: videoKeys.stats })
    return a
  })
}

/** POST …/visualizacao: the server counts it once per user per video per 24 h. */
export function recordView(qc: QueryClient, id: string): Promise<void> {
  return apiFetch<{ counted: boolean; views: number }>(`/api/videos/${enc(id)}/visualizacao`, { method: 'POST' }).then((a) => {
    patchVideo(qc, id, (x) => ({ ...x, views: a.views }))
  })
}
