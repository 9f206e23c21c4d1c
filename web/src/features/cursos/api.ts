import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query'
import { ApiError, apiFetch } from '@/lib/api'
import { queryKeys } from '@/lib/queryKeys'
import { toast } from '@/components/ui/toast'
import { listURL, type CourseQuery } from './format'
import { messages } from './messages'
import type { LessonVideo, Span, VideoSource } from '@/components/player/types'

// The player's shapes, which lessons and course intros carry.
export type { LessonVideo, Span, VideoSource }

// Shapes of the courses API (core/courses; core/httpapi/openapi.json): /api/cursos/...,
// /api/me/certificados and the public /api/certificados/{code}.

export interface Instructor {
  id: string
  name: string
  avatar: string | null
  title: string | null
}

export interface Category {
  id: string
  name: string
}

export interface CourseCard {
  id: string
  slug: string
  title: string
  /** The 100-character preview in lists, the full text on the course page. */
  description: string
  thumbnail: string | null
  category: Category | null
  instructor: Instructor | null
  level: string
  /** As members read it: '10h', '1h30', '45min' ('' when unknown). */
  duration: string
  duration_minutes: number
  price: number | null
  original_price: number | null
  rating: number
  total_ratings: number
  students: number
  tags: string[]
  published_at: string
  is_enrolled: boolean
  progress: number
  is_completed: boolean
  is_favorite: boolean
}

export interface CourseList {
  courses: CourseCard[]
  page: number
  page_size: number
  has_more: boolean
}

export interface CourseFilters {
  categories: Category[]
  instructors: Array<{ id: string; name: string }>
  levels: string[]
}

export interface CourseStatistics {
  enrolled_courses: number
  completed_courses: number
  favorite_courses: number
  total_points: number
  average_progress: number
  completed_hours: number
}

export interface ContinueTarget {
  lesson_id: string
  module_id: string
  position_seconds: number
}

export interface LessonSummary {
  id: string
  title: string
  description: string
  order: number
  duration: string
  duration_seconds: number
  is_free: boolean
  is_optional: boolean
  video_source: VideoSource | 'none'
  is_completed: boolean
  position_seconds: number
  can_access: boolean
}

export interface ModuleSummary {
  id: string
  title: string
  description: string
  order: number
  duration: string
  duration_seconds: number
  lessons: LessonSummary[]
}

export interface Certificate {
  code: string
  course_id: string
  course_title: string
  learner_name: string
  /** Who taught the course when the certificate was issued ('' when nobody was named). */
  instructor_name?: string
  instructor_title?: string
  hours: number
  issued_at: string
  status: 'valid' | 'revoked'
  revoked_at: string | null
  verify_url: string
  html_url: string
  pdf_url: string
}

export interface CourseDetail extends CourseCard {
  video_intro: { source: VideoSource; url: string } | null
  requirements: string[]
  objectives: string[]
  what_you_will_learn: string[]
  certificate: boolean
  modules: ModuleSummary[]
  lessons_count: number
  required_lessons: number
  completed_lessons: number
  continue: ContinueTarget | null
  enrolled_at: string | null
  completed_at: string | null
  my_certificate: Certificate | null
}

export type LastCourse = CourseCard & { continue: ContinueTarget | null; last_studied_at: string }

export interface LinkRef {
  url: string
  title: string
}

export interface Material extends LinkRef {
  type: string
}

export interface LessonDetail extends LessonSummary {
  course_id: string
  module_id: string
  module_title: string
  body: string
  video: LessonVideo | null
  cover_image: string | null
  external_link: LinkRef | null
  support_material: Material | null
  materials: Material[]
  likes: number
  is_liked: boolean
  previous: { id: string; title: string } | null
  next: { id: string; title: string } | null
  watched: Span[]
  percent: number
}

export interface CourseProgress {
  course_id: string
  progress: number
  is_completed: boolean
  completed_lessons: number
  required_lessons: number
  /** This request completed the course: show the completion screen. */
  just_completed: boolean
  points_awarded: number
  certificate: Certificate | null
  continue: ContinueTarget | null
}

export interface ProgressAnswer {
  lesson: { id: string; is_completed: boolean; position_seconds: number; percent: number; watched: Span[] }
  course: CourseProgress
}

export interface ProgressBody {
  position_seconds: number
  duration_seconds: number
  watched: Span[]
}

export interface EnrolAnswer {
  success: boolean
  message: string
  is_enrolled: boolean
  progress: number
  points_awarded: number
}

export interface FavoriteAnswer {
  success: boolean
  is_favorite: boolean
  message: string
}

export interface MyCertificates {
  certificates: Certificate[]
  hours_by_year: Array<{ year: number; hours: number }>
}

export interface PublicCertificate {
  status: 'valid' | 'revoked'
  learner_name: string
  course_title: string
  instructor_name?: string
  hours: number
  issued_at: string
}

/** Why the API refused a lesson or an enrolment (403 fields.access). */
export type AccessRefusal = 'not_enrolled' | 'premium_required' | 'trial_limit'

export function accessRefusal(err: unknown): AccessRefusal | null {
  if (!(err instanceof ApiError) || err.status !== 403) return null
  const access = err.fields.access
  return access === 'not_enrolled' || access === 'premium_required' || access === 'trial_limit' ? access : null
}

export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404
}

/**
 * The API's pt-BR reason for a refusal (4xx: trial limit, not found), else the
 * action's own message (network, 5xx).
 */
export function failureMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.status >= 400 && err.status < 500 && err.message) return err.message
  return fallback
}

// Every key lives under queryKeys.courses: invalidating it refreshes the feature.
export const courseKeys = {
  all: queryKeys.courses,
  lists: [...queryKeys.courses, 'list'] as const,
  list: (q: CourseQuery) => [...queryKeys.courses, 'list', q.category, q.level, q.instructor, q.status, q.q, q.sort] as const,
  filters: [...queryKeys.courses, 'filters'] as const,
  stats: [...queryKeys.courses, 'stats'] as const,
  last: [...queryKeys.courses, 'last'] as const,
  details: [...queryKeys.courses, 'detail'] as const,
  detail: (id: string) => [...queryKeys.courses, 'detail', id] as const,
  lesson: (courseId: string, lessonId: string) => [...queryKeys.courses, 'lesson', courseId, lessonId] as const,
  certificates: [...queryKeys.courses, 'certificates'] as const,
  publicCertificate: (code: string) => [...queryKeys.courses, 'certificate', code] as const,
}

const enc = encodeURIComponent

export function coursePath(id: string): string {
  return `/cursos/${enc(id)}`
}

export function lessonPath(courseId: string, lessonId: string): string {
  return `/cursos/${enc(courseId)}/aula/${enc(lessonId)}`
}

export function certificatePath(courseId: string): string {
  return `/cursos/${enc(courseId)}/certificado`
}

/** The catalogue, 20 at a time, with has_more when a full page came back. */
export function useCourseList(q: CourseQuery) {
  return useInfiniteQuery({
    queryKey: courseKeys.list(q),
    queryFn: ({ pageParam, signal }) => apiFetch<CourseList>(listURL(q, pageParam), { signal }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.has_more ? last.page + 1 : undefined),
  })
}

/** Categories, instructors and levels for the filters: they change only when editors publish. */
export function useCourseFilters() {
  return useQuery({
    queryKey: courseKeys.filters,
    queryFn: ({ signal }) => apiFetch<CourseFilters>('/api/cursos/filtros', { signal }),
    staleTime: 30 * 60_000,
  })
}

export function useCourseStatistics() {
  return useQuery({
    queryKey: courseKeys.stats,
    queryFn: ({ signal }) => apiFetch<CourseStatistics>('/api/cursos/estatisticas', { signal }),
  })
}

/** The home's "last course": the course last studied, or null. */
export function useLastCourse() {
  return useQuery({
    queryKey: courseKeys.last,
    queryFn: ({ signal }) => apiFetch<{ course: LastCourse | null }>('/api/cursos/ultimo', { signal }).then((r) => r.course),
    // Studying on another device moves it: read again on every visit to the home.
    staleTime: 0,
  })
}

export function useCourse(id: string) {
  return useQuery({
    queryKey: courseKeys.detail(id),
    queryFn: ({ signal }) => apiFetch<CourseDetail>(`/api/cursos/${enc(id)}`, { signal }),
    // Progress made on another device shows on the next visit (the cached copy shows meanwhile).
    staleTime: 0,
    enabled: !!id,
  })
}

export function useLesson(courseId: string, lessonId: string) {
  return useQuery({
    queryKey: courseKeys.lesson(courseId, lessonId),
    queryFn: ({ signal }) => apiFetch<LessonDetail>(`/api/cursos/${enc(courseId)}/aulas/${enc(lessonId)}`, { signal }),
    // The player resumes from the saved position, which another device may have
    // moved: never start from a cached copy.
    staleTime: 0,
    gcTime: 0,
    enabled: !!courseId && !!lessonId,
  })
}

export function useMyCertificates(enabled = true) {
  return useQuery({
    queryKey: courseKeys.certificates,
    enabled,
    queryFn: ({ signal }) => apiFetch<MyCertificates>('/api/me/certificados', { signal }),
  })
}

/**
 * The public verification of a certificate. `enabled` waits for the session
 * check: a visitor's check ends by clearing the query cache, which would drop
 * a read already under way.
 */
export function usePublicCertificate(code: string, enabled: boolean) {
  return useQuery({
    queryKey: courseKeys.publicCertificate(code),
    queryFn: ({ signal }) => apiFetch<PublicCertificate>(`/api/certificados/${enc(code)}`, { signal, noRefresh: true }),
    enabled: enabled && !!code,
  })
}

type ListData = InfiniteData<CourseList, number>

/** Applies fn to the course wherever it is cached: every catalogue page, its page and the home card. */
export function patchCourse(qc: QueryClient, id: string, fn: <T extends CourseCard>(c: T) => T): void {
  qc.setQueriesData<ListData>({ queryKey: courseKeys.lists }, (old) =>
    old ? { ...old, pages: old.pages.map((p) => ({ ...p, courses: p.courses.map((c) => (c.id === id ? fn(c) : c)) })) } : old,
  )
  qc.setQueriesData<CourseDetail>({ queryKey: courseKeys.details }, (old) => (old && old.id === id ? fn(old) : old))
  qc.setQueryData<LastCourse | null>(courseKeys.last, (old) => (old && old.id === id ? fn(old) : old))
}

function findCachedCourse(qc: QueryClient, id: string): CourseCard | undefined {
  for (const [, data] of qc.getQueriesData<CourseDetail>({ queryKey: courseKeys.details })) {
    if (data?.id === id) return data
  }
  for (const [, data] of qc.getQueriesData<ListData>({ queryKey: courseKeys.lists })) {
    const found = data?.pages.flatMap((p) => p.courses).find((c) => c.id === id)
    if (found) return found
  }
  return undefined
}

/** 'Matricular-se': idempotent on the server, so the client's retries are safe. */
export function useEnrol(courseId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => apiFetch<EnrolAnswer>(`/api/cursos/${enc(courseId)}/matricula`, { method: 'POST' }),
    onSuccess: (a) => {
      patchCourse(qc, courseId, (c) => ({
        ...c,
        is_enrolled: true,
        progress: a.progress,
        students: a.points_awarded > 0 ? c.students + 1 : c.students,
      }))
      // Lessons open up, the statistics and the 'Matriculados' list change.
      void qc.invalidateQueries({ queryKey: courseKeys.all })
      // The ledger's live event updates the VetCoins badge; this read covers a closed stream.
      if (a.points_awarded > 0) void qc.invalidateQueries({ queryKey: queryKeys.pointsBalance })
    },
  })
}

/**
 * The favorite toggle: shown at once, settled by the server's answer, rolled
 * back with the action's message on failure. The server toggles, so a retry
 * could undo the first try: no retries, and the button ignores clicks while
 * one is on its way.
 */
export function useToggleFavorite(courseId: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationKey: [...courseKeys.all, 'favorite', courseId],
    retry: false,
    mutationFn: () => apiFetch<FavoriteAnswer>(`/api/cursos/${enc(courseId)}/favorito`, { method: 'POST' }),
    onMutate: () => {
      const before = findCachedCourse(qc, courseId)?.is_favorite
      patchCourse(qc, courseId, (c) => ({ ...c, is_favorite: !c.is_favorite }))
      return { before }
    },
    onSuccess: (a) => {
      patchCourse(qc, courseId, (c) => ({ ...c, is_favorite: a.is_favorite }))
      void qc.invalidateQueries({ queryKey: courseKeys.stats })
      // The 'Favoritos' list gains or loses the course on its next read (not
      // under the reader's cursor).
      void qc.invalidateQueries({ queryKey: courseKeys.lists, predicate: (q) => q.queryKey[5] === 'favorites', refetchType: 'none' })
    },
    onError: (err, _v, ctx) => {
      if (ctx?.before !== undefined) patchCourse(qc, courseId, (c) => ({ ...c, is_favorite: ctx.before! }))
      toast.error(failureMessage(err, messages.favoriteFailed))
    },
  })
}

/** Writes a progress answer everywhere it shows: the lesson, the curriculum, the cards and the home. */
export function applyProgress(qc: QueryClient, routeCourseId: string, lessonId: string, a: ProgressAnswer): void {
  qc.setQueryData<LessonDetail>(courseKeys.lesson(routeCourseId, lessonId), (old) =>
    old
      ? { ...old, is_completed: a.lesson.is_completed, position_seconds: a.lesson.position_seconds, percent: a.lesson.percent, watched: a.lesson.watched }
      : old,
  )
  const c = a.course
  qc.setQueriesData<CourseDetail>({ queryKey: courseKeys.details }, (old) => {
    if (!old || old.id !== c.course_id) return old
    return {
      ...old,
      progress: c.progress,
      is_completed: c.is_completed,
      completed_lessons: c.completed_lessons,
      required_lessons: c.required_lessons,
      continue: c.continue,
      my_certificate: c.certificate ?? old.my_certificate,
      completed_at: c.just_completed ? new Date().toISOString() : old.completed_at,
      modules: old.modules.map((m) => ({
        ...m,
        lessons: m.lessons.map((l) =>
          l.id === a.lesson.id ? { ...l, is_completed: a.lesson.is_completed, position_seconds: a.lesson.position_seconds } : l,
        ),
      })),
    }
  })
  qc.setQueriesData<ListData>({ queryKey: courseKeys.lists }, (old) =>
    old
      ? {
          ...old,
          pages: old.pages.map((p) => ({
            ...p,
            courses: p.courses.map((x) => (x.id === c.course_id ? { ...x, progress: c.progress, is_completed: c.is_completed } : x)),
          })),
        }
      : old,
  )
  // Not on screen while a lesson plays: marked stale, read on the next visit.
  void qc.invalidateQueries({ queryKey: courseKeys.stats })
  void qc.invalidateQueries({ queryKey: courseKeys.last })
  void qc.invalidateQueries({ queryKey: courseKeys.lists })
  if (c.just_completed || c.certificate) void qc.invalidateQueries({ queryKey: courseKeys.certificates })
  if (c.points_awarded > 0) void qc.invalidateQueries({ queryKey: queryKeys.pointsBalance })
}

export function progressURL(courseId: string, lessonId: string): string {
  return `/api/cursos/${enc(courseId)}/aulas/${enc(lessonId)}/progresso`
}

/** PUT …/progresso: the position, the media length and the spans played since the last report. */
export function saveProgress(courseId: string, lessonId: string, body: ProgressBody, keepalive = false): Promise<ProgressAnswer> {
  return apiFetch<ProgressAnswer>(progressURL(courseId, lessonId), { method: 'PUT', body, keepalive })
}

/** 'Marcar como concluída' (idempotent on the server). */
export function useCompleteLesson(courseId: string, lessonId: string, onAnswer: (a: ProgressAnswer) => void) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => apiFetch<ProgressAnswer>(`/api/cursos/${enc(courseId)}/aulas/${enc(lessonId)}/concluir`, { method: 'POST' }),
    onSuccess: (a) => {
      applyProgress(qc, courseId, lessonId, a)
      onAnswer(a)
    },
    onError: (err) => toast.error(failureMessage(err, messages.completeFailed)),
  })
}

/** Like on a lesson through the content platform's engagement (type cursos-aulas). */
export function useLessonLike(courseId: string, lessonId: string) {
  const qc = useQueryClient()
  const key = courseKeys.lesson(courseId, lessonId)
  return useMutation({
    mutationKey: [...courseKeys.all, 'lesson-like', lessonId],
    mutationFn: (like: boolean) =>
      apiFetch<{ likes: number; reaction: string }>(`/api/content/cursos-aulas/${enc(lessonId)}/reaction`, {
        method: 'PUT',
        body: { value: like ? 'like' : null },
      }),
    onMutate: (like) => {
      const before = qc.getQueryData<LessonDetail>(key)
      qc.setQueryData<LessonDetail>(key, (old) =>
        old && old.is_liked !== like ? { ...old, is_liked: like, likes: Math.max(0, old.likes + (like ? 1 : -1)) } : old,
      )
      return { before: before ? { likes: before.likes, is_liked: before.is_liked } : undefined }
    },
    onSuccess: (r) => {
      qc.setQueryData<LessonDetail>(key, (old) => (old ? { ...old, likes: Math.max(0, r.likes), is_liked: r.reaction === 'like' } : old))
    },
    onError: (err, _like, ctx) => {
      if (ctx?.before) qc.setQueryData<LessonDetail>(key, (old) => (old ? { ...old, ...ctx.before } : old))
      toast.error(failureMessage(err, messages.likeFailed))
    },
  })
}
