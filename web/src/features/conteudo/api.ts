import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'

/** A content type as GET /api/content/types declares it (the core's content.Type). */
export interface ContentField {
  name: string
  label: string
  kind: string
  options?: { value: string; label: string }[]
  listed?: boolean
  filterable?: boolean
  searchable?: boolean
  computed?: boolean
}

export interface ContentType {
  id: string
  singular: string
  plural: string
  icon: string
  route?: string
  fields: ContentField[]
  list: { page_size: number }
}

export interface Engagement {
  favorites: number
  likes: number
  dislikes: number
  views: number
  favorited: boolean
  reaction: '' | 'like' | 'dislike'
}

/** A published item (lists carry only the listed fields). */
export interface ContentItem {
  id: string
  type: string
  slug: string
  title: string
  summary: string
  fields: Record<string, unknown>
  published_at: string
  updated_at: string
  engagement: Engagement
  preview?: boolean
}

export interface ContentPage {
  items: ContentItem[]
  total: number
  next_cursor?: string
}

export const contentKeys = {
  types: ['content', 'types'] as const,
  list: (type: string, q: string, filters: Record<string, string>) => ['content', type, 'list', q, filters] as const,
  item: (type: string, slug: string) => ['content', type, 'item', slug] as const,
}

/** The registered types: they change only when a plugin is installed. */
export function useContentTypes() {
  return useQuery({
    queryKey: contentKeys.types,
    queryFn: () => apiFetch<ContentType[]>('/api/content/types'),
    staleTime: 60 * 60 * 1000,
  })
}

/** The type whose list lives at path, and the item slug after it ("" on the list). */
export function matchContentRoute(types: ContentType[] | undefined, path: string): { type: ContentType; slug: string } | null {
  const clean = path.replace(/\/+$/, '') || '/'
  for (const type of types ?? []) {
    if (!type.route) continue
    if (clean === type.route) return { type, slug: '' }
    if (clean.startsWith(type.route + '/')) {
      const rest = clean.slice(type.route.length + 1)
      if (rest && !rest.includes('/')) return { type, slug: decodeURIComponent(rest) }
    }
  }
  return null
}

export function listURL(type: string, q: string, filters: Record<string, string>, cursor?: string): string {
  const params = new URLSearchParams()
  if (q.trim()) params.set('q', q.trim())
  for (const [field, value] of Object.entries(filters)) if (value) params.append(`f.${field}`, value)
  if (cursor) params.set('cursor', cursor)
  const qs = params.toString()
  return `/api/content/${encodeURIComponent(type)}${qs ? `?${qs}` : ''}`
}

/** Pages of published items, newest first, following the server's cursor. */
export function useContentList(type: string, q: string, filters: Record<string, string>) {
  return useInfiniteQuery({
    queryKey: contentKeys.list(type, q, filters),
    queryFn: ({ pageParam, signal }) => apiFetch<ContentPage>(listURL(type, q, filters, pageParam), { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor || undefined,
    staleTime: 60 * 1000,
  })
}

export function useContentItem(type: string, slug: string) {
  return useQuery({
    queryKey: contentKeys.item(type, slug),
    queryFn: () => apiFetch<ContentItem>(`/api/content/${encodeURIComponent(type)}/${encodeURIComponent(slug)}`),
    staleTime: 60 * 1000,
    enabled: slug !== '',
  })
}

function itemPath(item: ContentItem, suffix: string) {
  return `/api/content/${encodeURIComponent(item.type)}/${encodeURIComponent(item.id)}/${suffix}`
}

/** Records the reader's view (the server counts one per reader and item per 24 h). */
export function recordView(item: ContentItem): Promise<unknown> {
  return apiFetch(itemPath(item, 'view'), { method: 'POST' })
}

/** Favorite and like/dislike, shown at once and confirmed by the server's counters. */
export function useEngagement(item: ContentItem) {
  const qc = useQueryClient()
  const patch = (next: Partial<Engagement>) => {
    const apply = (it: ContentItem) => (it.id === item.id ? { ...it, engagement: { ...it.engagement, ...next } } : it)
    qc.setQueryData<ContentItem>(contentKeys.item(item.type, item.slug), (old) => (old ? apply(old) : old))
    qc.setQueriesData<InfiniteData<ContentPage>>({ queryKey: ['content', item.type, 'list'] }, (old) =>
      old ? { ...old, pages: old.pages.map((p) => ({ ...p, items: p.items.map(apply) })) } : old,
    )
  }
  const favorite = useMutation({
    mutationFn: (on: boolean) => apiFetch<Engagement>(itemPath(item, 'favorite'), { method: on ? 'PUT' : 'DELETE' }),
    onMutate: (on) => patch({ favorited: on, favorites: Math.max(0, item.engagement.favorites + (on ? 1 : -1)) }),
    onSuccess: (summary) => summary && patch(summary),
    onError: () => patch(item.engagement),
  })
  const react = useMutation({
    mutationFn: (reaction: '' | 'like' | 'dislike') =>
      apiFetch<Engagement>(itemPath(item, 'reaction'), { method: 'PUT', body: { value: reaction || null } }),
    onMutate: (reaction) => patch({ reaction }),
    onSuccess: (summary) => summary && patch(summary),
    onError: () => patch(item.engagement),
  })
  return { favorite, react }
}
