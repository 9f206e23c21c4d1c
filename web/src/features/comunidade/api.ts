import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query'
import { ApiError, apiFetch } from '@/lib/api'
import { queryKeys } from '@/lib/queryKeys'
import { toast } from '@/components/ui/toast'
import { connectionKeys } from '@/features/conexoes'
import { messages } from './messages'

// Shapes of the community API (/api/community/..., /api/comments/..., /api/reports).

export interface Author {
  id: string
  first_name: string
  last_name: string
  avatar_url: string | null
  title: string | null
  verified: boolean
}

export interface PostMedia {
  id: string
  media_type: 'image' | string
  url: string
  thumbnail_url: string | null
  width: number | null
  height: number | null
  file_name: string
  file_size: number
  mime_type: string
}

export interface Post {
  id: string
  author: Author | null
  content: string
  media: PostMedia[]
  created_at: string
  edited_at: string | null
  likes: number
  comments_count: number
  liked: boolean
  is_mine: boolean
  /** The comment the author accepted as the post's answer. */
  accepted_comment_id?: string | null
}

export interface FeedPage {
  items: Post[]
  next_cursor: string | null
}

export interface Comment {
  id: string
  item_id: string
  parent_id: string | null
  author: Author | null
  content: string
  created_at: string
  updated_at: string
  is_edited: boolean
  likes: number
  dislikes: number
  is_liked: boolean
  is_disliked: boolean
  is_mine: boolean
  replies: Comment[]
}

export interface CommentList {
  items: Comment[]
}

export type FeedTab = 'todos' | 'conexoes'
export type Reaction = 'like' | 'dislike' | 'none'
export type ReportTarget = 'post' | 'comment'

interface ReactionCounts {
  likes: number
  dislikes: number
  is_liked: boolean
  is_disliked: boolean
}

export const MAX_IMAGES = 10
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024
export const MAX_POST_LENGTH = 5000
export const FEED_PAGE_SIZE = 20
export const ACCEPTED_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif']

export interface FeedFilter {
  tab: FeedTab
  /** One person's posts (the public profile). */
  author?: string
  limit?: number
}

// Every key lives under queryKeys.community, so one invalidation refreshes the
// feeds, the open post and its comments together.
export const communityKeys = {
  all: queryKeys.community,
  feeds: [...queryKeys.community, 'feed'] as const,
  feed: (f: FeedFilter) => [...queryKeys.community, 'feed', f.tab, f.author ?? '', f.limit ?? FEED_PAGE_SIZE] as const,
  post: (id: string) => [...queryKeys.community, 'post', id] as const,
  comments: (postId: string) => [...queryKeys.community, 'comments', postId] as const,
  blocks: [...queryKeys.community, 'blocks'] as const,
}

const enc = encodeURIComponent

export function feedURL(f: FeedFilter, cursor?: string): string {
  const params = new URLSearchParams({ tab: f.tab })
  if (f.author) params.set('author', f.author)
  if (cursor) params.set('cursor', cursor)
  params.set('limit', String(f.limit ?? FEED_PAGE_SIZE))
  return `/api/community/feed?${params.toString()}`
}

/**
 * The lost-session text for a lost session, the API's pt-BR reason for any
 * other refusal (4xx: rate limit, validation, not the author), else the
 * action's own message (network, 5xx).
 */
export function failureMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.status === 401) return messages.unauthenticated
  if (err instanceof ApiError && err.status >= 400 && err.status < 500) return err.message
  return fallback
}

/** Pages of posts, newest first, following next_cursor. */
export function useFeed(filter: FeedFilter, enabled = true) {
  return useInfiniteQuery({
    queryKey: communityKeys.feed(filter),
    queryFn: ({ pageParam, signal }) => apiFetch<FeedPage>(feedURL(filter, pageParam), { signal }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor || undefined,
    // Other members post and comment all the time: read again on every visit.
    staleTime: 0,
    enabled,
  })
}

type FeedData = InfiniteData<FeedPage, string | undefined>

function findCachedPost(qc: QueryClient, id: string): Post | undefined {
  const direct = qc.getQueryData<Post>(communityKeys.post(id))
  if (direct) return direct
  for (const [, data] of qc.getQueriesData<FeedData>({ queryKey: communityKeys.feeds })) {
    const found = data?.pages.flatMap((p) => p.items).find((p) => p.id === id)
    if (found) return found
  }
  return undefined
}

/** Applies `fn` to the post wherever it is cached: every feed and the post itself. */
export function patchPost(qc: QueryClient, id: string, fn: (p: Post) => Post): void {
  qc.setQueriesData<FeedData>({ queryKey: communityKeys.feeds }, (old) =>
    old ? { ...old, pages: old.pages.map((page) => ({ ...page, items: page.items.map((p) => (p.id === id ? fn(p) : p)) })) } : old,
  )
  qc.setQueryData<Post>(communityKeys.post(id), (old) => (old ? fn(old) : old))
}

function removePost(qc: QueryClient, id: string): void {
  qc.setQueriesData<FeedData>({ queryKey: communityKeys.feeds }, (old) =>
    old ? { ...old, pages: old.pages.map((page) => ({ ...page, items: page.items.filter((p) => p.id !== id) })) } : old,
  )
  qc.removeQueries({ queryKey: communityKeys.post(id) })
  qc.removeQueries({ queryKey: communityKeys.comments(id) })
}

/** One post (the comments modal), shown at once from the feed when it is there. */
export function usePost(id: string | null) {
  const qc = useQueryClient()
  return useQuery<Post>({
    queryKey: communityKeys.post(id ?? ''),
    queryFn: ({ signal }) => apiFetch<Post>(`/api/community/posts/${enc(id ?? '')}`, { signal }),
    placeholderData: () => (id ? findCachedPost(qc, id) : undefined),
    enabled: !!id,
    staleTime: 0,
  })
}

/** POST /api/community/uploads: one image, with upload progress (XMLHttpRequest under apiFetch). */
export function uploadPostImage(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<PostMedia> {
  const form = new FormData()
  form.append('file', file, file.name)
  return apiFetch<PostMedia>('/api/community/uploads', { method: 'POST', form, onUploadProgress: onProgress, signal })
}

export interface NewPost {
  content: string
  media_ids: string[]
  /** Same key for every attempt at the same draft: a double click or a retry posts once. */
  idempotencyKey: string
}

export function useCreatePost() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ content, media_ids, idempotencyKey }: NewPost) =>
      apiFetch<Post>('/api/community/posts', { method: 'POST', body: { content, media_ids }, headers: { 'Idempotency-Key': idempotencyKey } }),
    onSuccess: (post) => {
      // The new post tops both tabs at once (the connections tab includes one's own posts).
      for (const tab of ['todos', 'conexoes'] as const) {
        qc.setQueryData<FeedData>(communityKeys.feed({ tab }), (old) => {
          if (!old || old.pages.length === 0) return old
          if (old.pages.some((p) => p.items.some((x) => x.id === post.id))) return old
          const [first, ...rest] = old.pages
          return { ...old, pages: [{ ...first!, items: [post, ...first!.items] }, ...rest] }
        })
      }
      // Other lists (a profile's recent posts) and the VetCoins the post earned.
      void qc.invalidateQueries({ queryKey: communityKeys.feeds, predicate: (q) => q.queryKey[3] !== '' })
      void qc.invalidateQueries({ queryKey: queryKeys.pointsBalance })
    },
  })
}

export function useUpdatePost() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, content, media_ids }: { id: string; content: string; media_ids: string[] }) =>
      apiFetch<Post>(`/api/community/posts/${enc(id)}`, { method: 'PUT', body: { content, media_ids } }),
    onSuccess: (post) => patchPost(qc, post.id, () => post),
  })
}

export function useDeletePost() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`/api/community/posts/${enc(id)}`, { method: 'DELETE' }),
    onSuccess: (_, id) => removePost(qc, id),
  })
}

/** Like / unlike a post: shown at once, confirmed by the server's count, rolled back on failure. */
export function usePostLike(postId: string) {
  const qc = useQueryClient()
  return useMutation({
    // One request at a time per post, in click order, so the last click wins.
    mutationKey: [...queryKeys.community, 'post-like', postId],
    scope: { id: `post-like-${postId}` },
    mutationFn: (like: boolean) =>
      apiFetch<{ likes: number; liked: boolean }>(`/api/community/posts/${enc(postId)}/like`, { method: like ? 'PUT' : 'DELETE' }),
    onMutate: (like) => {
      const before = findCachedPost(qc, postId)
      patchPost(qc, postId, (p) => (p.liked === like ? p : { ...p, liked: like, likes: Math.max(0, p.likes + (like ? 1 : -1)) }))
      return { before: before ? { likes: before.likes, liked: before.liked } : undefined }
    },
    onSuccess: (r) => {
      // A later click is already queued and shown: its answer will settle the counts.
      if (qc.isMutating({ mutationKey: [...queryKeys.community, 'post-like', postId] }) > 1) return
      patchPost(qc, postId, (p) => ({ ...p, likes: r.likes, liked: r.liked }))
    },
    onError: (err, _like, ctx) => {
      if (ctx?.before) {
        const before = ctx.before
        patchPost(qc, postId, (p) => ({ ...p, ...before }))
      }
      toast.error(failureMessage(err, messages.postLikeFailed))
    },
  })
}

/** The post's author accepts a colleague's comment as the answer (commentId null: none). */
export function useAcceptAnswer(postId: string) {
  const qc = useQueryClient()
  return useMutation({
    scope: { id: `accept-answer-${postId}` },
    mutationFn: (commentId: string | null) =>
      apiFetch<{ post_id: string; accepted_comment_id: string | null }>(`/api/community/posts/${enc(postId)}/resposta-aceita`, {
        method: commentId ? 'PUT' : 'DELETE',
        body: commentId ? { comment_id: commentId } : undefined,
      }),
    onSuccess: (r) => {
      patchPost(qc, postId, (p) => ({ ...p, accepted_comment_id: r.accepted_comment_id }))
      toast.success(r.accepted_comment_id ? messages.answerAccepted : messages.answerCleared)
    },
    onError: (err) => toast.error(failureMessage(err, messages.acceptAnswerFailed)),
  })
}

// Comments -------------------------------------------------------------------

const time = (iso: string) => new Date(iso).getTime() || 0

/**
 * Top-level comments newest first, replies oldest first. The server
 * answers in that order; sorting here too keeps a comment written on this
 * screen (inserted into the cache) in its place.
 */
export function sortComments(items: Comment[]): Comment[] {
  return [...items]
    .sort((a, b) => time(b.created_at) - time(a.created_at))
    .map((c) => ({ ...c, replies: [...(c.replies ?? [])].sort((a, b) => time(a.created_at) - time(b.created_at)) }))
}

export function useComments(postId: string) {
  return useQuery({
    queryKey: communityKeys.comments(postId),
    queryFn: ({ signal }) => apiFetch<CommentList>(`/api/community/posts/${enc(postId)}/comments`, { signal }),
    select: (data) => ({ items: sortComments(data.items) }),
    staleTime: 0,
    enabled: postId !== '',
  })
}

/** What a press on like or dislike asks for: pressing the active one clears it. */
export function nextReaction(c: Pick<Comment, 'is_liked' | 'is_disliked'>, pressed: 'like' | 'dislike'): Reaction {
  if (pressed === 'like') return c.is_liked ? 'none' : 'like'
  return c.is_disliked ? 'none' : 'dislike'
}

/** The comment's counts after `reaction`: like and dislike exclude each other. */
export function applyReaction<C extends ReactionCounts>(c: C, reaction: Reaction): C {
  let likes = c.likes - (c.is_liked ? 1 : 0)
  let dislikes = c.dislikes - (c.is_disliked ? 1 : 0)
  if (reaction === 'like') likes += 1
  if (reaction === 'dislike') dislikes += 1
  return { ...c, likes: Math.max(0, likes), dislikes: Math.max(0, dislikes), is_liked: reaction === 'like', is_disliked: reaction === 'dislike' }
}

function mapComments(list: Comment[], id: string, fn: (c: Comment) => Comment): Comment[] {
  return list.map((c) => (c.id === id ? fn(c) : c.replies.length ? { ...c, replies: mapComments(c.replies, id, fn) } : c))
}

function findComment(list: Comment[] | undefined, id: string): Comment | undefined {
  for (const c of list ?? []) {
    if (c.id === id) return c
    const r = c.replies.find((x) => x.id === id)
    if (r) return r
  }
  return undefined
}

function patchComment(qc: QueryClient, postId: string, id: string, fn: (c: Comment) => Comment): void {
  qc.setQueryData<CommentList>(communityKeys.comments(postId), (old) => (old ? { ...old, items: mapComments(old.items, id, fn) } : old))
}

function bumpCommentsCount(qc: QueryClient, postId: string, delta: number): void {
  patchPost(qc, postId, (p) => ({ ...p, comments_count: Math.max(0, p.comments_count + delta) }))
}

export interface NewComment {
  content: string
  parentId?: string | null
  idempotencyKey: string
}

export function useCreateComment(postId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ content, parentId, idempotencyKey }: NewComment) =>
      apiFetch<Comment>(`/api/community/posts/${enc(postId)}/comments`, {
        method: 'POST',
        body: parentId ? { content, parent_id: parentId } : { content },
        headers: { 'Idempotency-Key': idempotencyKey },
      }),
    onSuccess: (comment) => {
      let added = false
      qc.setQueryData<CommentList>(communityKeys.comments(postId), (old) => {
        const items = old?.items ?? []
        if (findComment(items, comment.id)) return old
        added = true
        if (!comment.parent_id) return { items: [{ ...comment, replies: comment.replies ?? [] }, ...items] }
        return { items: items.map((c) => (c.id === comment.parent_id ? { ...c, replies: [...c.replies, comment] } : c)) }
      })
      if (added) bumpCommentsCount(qc, postId, 1)
    },
  })
}

export function useUpdateComment(postId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, content }: { id: string; content: string }) => apiFetch<Comment>(`/api/comments/${enc(id)}`, { method: 'PUT', body: { content } }),
    // The answer of a top-level comment may leave its replies out: keep the ones on screen.
    onSuccess: (comment) => patchComment(qc, postId, comment.id, (old) => ({ ...old, ...comment, replies: old.replies })),
  })
}

export function useDeleteComment(postId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`/api/comments/${enc(id)}`, { method: 'DELETE' }),
    onSuccess: (_, id) => {
      const list = qc.getQueryData<CommentList>(communityKeys.comments(postId))
      const gone = findComment(list?.items, id)
      qc.setQueryData<CommentList>(communityKeys.comments(postId), (old) =>
        old ? { items: old.items.filter((c) => c.id !== id).map((c) => ({ ...c, replies: c.replies.filter((r) => r.id !== id) })) } : old,
      )
      // A top-level comment takes its replies with it.
      bumpCommentsCount(qc, postId, gone ? -(1 + gone.replies.length) : -1)
    },
  })
}

/** Like / dislike / none on a comment, at once, serialised per comment, rolled back with the action's toast. */
export function useCommentReaction(postId: string, commentId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationKey: [...queryKeys.community, 'comment-reaction', commentId],
    scope: { id: `comment-reaction-${commentId}` },
    mutationFn: ({ reaction }: { reaction: Reaction; pressed: 'like' | 'dislike' }) =>
      apiFetch<ReactionCounts>(`/api/comments/${enc(commentId)}/reaction`, { method: 'PUT', body: { reaction } }),
    onMutate: ({ reaction }) => {
      const before = findComment(qc.getQueryData<CommentList>(communityKeys.comments(postId))?.items, commentId)
      patchComment(qc, postId, commentId, (c) => applyReaction(c, reaction))
      return {
        before: before && { likes: before.likes, dislikes: before.dislikes, is_liked: before.is_liked, is_disliked: before.is_disliked },
      }
    },
    onSuccess: (r) => {
      if (qc.isMutating({ mutationKey: [...queryKeys.community, 'comment-reaction', commentId] }) > 1) return
      patchComment(qc, postId, commentId, (c) => ({ ...c, ...r }))
    },
    onError: (err, { pressed }, ctx) => {
      const before = ctx?.before
      if (before) patchComment(qc, postId, commentId, (c) => ({ ...c, ...before }))
      toast.error(failureMessage(err, pressed === 'like' ? messages.likeFailed : messages.dislikeFailed))
    },
  })
}

// Reports and blocks -----------------------------------------------------------

/** The reason categories of POST /api/reports; 'outro' needs the free text. */
export const REPORT_CATEGORIES = [
  { value: 'spam', label: 'Spam ou propaganda' },
  { value: 'ofensivo', label: 'Ofensa ou assédio' },
  { value: 'desinformacao', label: 'Informação falsa ou perigosa' },
  { value: 'improprio', label: 'Conteúdo impróprio' },
  { value: 'outro', label: 'Outro motivo' },
] as const

export type ReportCategory = (typeof REPORT_CATEGORIES)[number]['value']

export function useReport() {
  const qc = useQueryClient()
  return useMutation({
    retry: false,
    mutationFn: (r: { target_type: ReportTarget; target_id: string; category: ReportCategory; reason: string }) =>
      apiFetch<{ hidden: boolean }>('/api/reports', { method: 'POST', body: r }),
    onSuccess: ({ hidden }, r) => {
      // A reported post leaves the reporter's feed; a hidden target is gone for everyone.
      if (hidden || r.target_type === 'post') void qc.invalidateQueries({ queryKey: communityKeys.all })
    },
  })
}

export interface BlockedPerson {
  id: string
  first_name: string
  last_name: string
}

/** The people the signed-in member blocked (GET /api/blocks). */
export function useMyBlocks(enabled = true) {
  return useQuery({
    queryKey: communityKeys.blocks,
    queryFn: () => apiFetch<{ blocked: BlockedPerson[] }>('/api/blocks'),
    enabled,
  })
}

export function useBlockUser() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (userId: string) => apiFetch<{ status: string }>('/api/blocks', { method: 'POST', body: { user_id: userId } }),
    onSuccess: () => {
      // Their posts and comments leave every list, and the connection between the two ends.
      void qc.invalidateQueries({ queryKey: communityKeys.all })
      void qc.invalidateQueries({ queryKey: connectionKeys.all })
      void qc.invalidateQueries({ queryKey: queryKeys.profile })
    },
  })
}

export function useUnblockUser() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (userId: string) => apiFetch<{ status: string }>(`/api/blocks/${enc(userId)}`, { method: 'DELETE' }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: communityKeys.all })
      void qc.invalidateQueries({ queryKey: connectionKeys.all })
    },
  })
}
