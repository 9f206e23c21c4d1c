import { vi } from 'vitest'
import type { Certificate, CourseDetail, LessonDetail, LessonSummary, ModuleSummary, Span } from '../api'
import { mergeSpans } from '@/components/player/tracker'

export { installBrowserGaps, renderRoutes } from '@/test/renderRoutes'

// The courses API (core/courses) over in-memory state, at the
// network layer (fetch), so hooks, apiFetch and pages run as in the app.

export type FakeLesson = LessonSummary & Partial<Omit<LessonDetail, keyof LessonSummary>>

export interface FakeCourse extends Omit<CourseDetail, 'modules'> {
  modules: Array<Omit<ModuleSummary, 'lessons'> & { lessons: FakeLesson[] }>
}

export function lesson(id: string, overrides: Partial<FakeLesson> = {}): FakeLesson {
  return {
    id,
    title: `Aula ${id}`,
    description: '',
    order: 1,
    duration: '10min',
    duration_seconds: 600,
    is_free: false,
    is_optional: false,
    video_source: 'upload',
    is_completed: false,
    position_seconds: 0,
    can_access: false,
    video: { source: 'upload', url: `/media/${id}.mp4`, embed_url: null, hls: false },
    ...overrides,
  }
}

export function course(id: string, overrides: Partial<FakeCourse> = {}): FakeCourse {
  return {
    id,
    slug: id,
    title: `Curso ${id}`,
    description: `Descrição do curso ${id}`,
    thumbnail: null,
    category: { id: 'cat-clinica', name: 'Clínica' },
    instructor: { id: 'inst-ana', name: 'Dra. Ana Lima', avatar: null, title: 'Médica veterinária, MSc' },
    level: 'Iniciante',
    duration: '10h',
    duration_minutes: 600,
    price: null,
    original_price: null,
    rating: 4.5,
    total_ratings: 10,
    students: 0,
    tags: [],
    published_at: '2026-01-01T12:00:00Z',
    is_enrolled: false,
    progress: 0,
    is_completed: false,
    is_favorite: false,
    video_intro: null,
    requirements: [],
    objectives: [],
    what_you_will_learn: [],
    certificate: true,
    modules: [],
    lessons_count: 0,
    required_lessons: 0,
    completed_lessons: 0,
    continue: null,
    enrolled_at: null,
    completed_at: null,
    my_certificate: null,
    ...overrides,
  }
}

export interface Call {
  method: string
  path: string
  search: URLSearchParams
  body: unknown
  init?: RequestInit
}

interface State {
  courses: FakeCourse[]
  signedIn: boolean
  premium: boolean
  /** Enrolments beyond the plan's limit are refused (trial_limit). */
  enrolLimitReached: boolean
  certificates: Certificate[]
  lastCourseId: string | null
  points: number
  liked: Record<string, boolean>
  likes: Record<string, number>
  watched: Record<string, Span[]>
}

type Reply = { status: number; body?: unknown }

const json = ({ status, body }: Reply) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

const err = (status: number, code: string, message: string, fields?: Record<string, string>): Reply => ({ status, body: { error: { code, message, fields } } })

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()

function cut(text: string): string {
  const chars = Array.from(text)
  return chars.length <= 100 ? text : chars.slice(0, 100).join('') + '…'
}

export function fakeCoursesApi(initial: Partial<State> = {}, options: { fail?: (c: Call) => Reply | undefined | false } = {}) {
  const state: State = {
    courses: [],
    signedIn: true,
    premium: true,
    enrolLimitReached: false,
    certificates: [],
    lastCourseId: null,
    points: 0,
    liked: {},
    likes: {},
    watched: {},
    ...structuredClone(initial),
  }
  const calls: Call[] = []

  const find = (id: string) => state.courses.find((c) => c.id === id || c.slug === id)
  const lessons = (c: FakeCourse) => c.modules.flatMap((m) => m.lessons)
  const canAccess = (c: FakeCourse, l: FakeLesson) => l.is_free || (c.is_enrolled && state.premium)

  const recompute = (c: FakeCourse) => {
    // A course given without a curriculum keeps the progress the test set.
    if (c.modules.length === 0) return
    const required = lessons(c).filter((l) => !l.is_optional)
    const done = required.filter((l) => l.is_completed).length
    c.required_lessons = required.length
    c.completed_lessons = done
    c.lessons_count = lessons(c).length
    if (!c.is_completed) c.progress = required.length ? Math.floor((100 * done) / required.length) : 0
    const next = c.modules.flatMap((m) => m.lessons.map((l) => ({ m, l }))).find(({ l }) => !l.is_optional && !l.is_completed)
    c.continue = next ? { lesson_id: next.l.id, module_id: next.m.id, position_seconds: next.l.position_seconds } : null
  }

  const detail = (c: FakeCourse): CourseDetail => {
    recompute(c)
    return {
      ...c,
      modules: c.modules.map((m) => ({
        ...m,
        lessons: m.lessons.map((l) => {
          const { video: _v, body: _b, materials: _m, support_material: _s, external_link: _e, ...summary } = l
          return { ...summary, can_access: canAccess(c, l) }
        }),
      })),
    }
  }

  const card = (c: FakeCourse) => {
    recompute(c)
    const { modules: _m, video_intro: _v, requirements: _r, objectives: _o, what_you_will_learn: _w, ...rest } = c
    return { ...rest, description: cut(c.description) }
  }

  const lessonDetail = (c: FakeCourse, l: FakeLesson): LessonDetail => {
    const flat = c.modules.flatMap((m) => m.lessons.map((x) => ({ m, x })))
    const i = flat.findIndex(({ x }) => x.id === l.id)
    const here = flat[i]!
    const prev = flat[i - 1]
    const next = flat[i + 1]
    return {
      ...l,
      can_access: true,
      course_id: c.id,
      module_id: here.m.id,
      module_title: here.m.title,
      body: l.body ?? '',
      video: l.video ?? null,
      cover_image: l.cover_image ?? null,
      external_link: l.external_link ?? null,
      support_material: l.support_material ?? null,
      materials: l.materials ?? [],
      likes: state.likes[l.id] ?? 0,
      is_liked: !!state.liked[l.id],
      previous: prev ? { id: prev.x.id, title: prev.x.title } : null,
      next: next ? { id: next.x.id, title: next.x.title } : null,
      watched: state.watched[l.id] ?? [],
      percent: 0,
    }
  }

  const progressAnswer = (c: FakeCourse, l: FakeLesson) => {
    const wasCompleted = c.is_completed
    recompute(c)
    let justCompleted = false
    let points = 0
    if (!wasCompleted && c.required_lessons > 0 && c.completed_lessons === c.required_lessons) {
      c.is_completed = true
      c.progress = 100
      c.completed_at = new Date().toISOString()
      justCompleted = true
      points = 200
      state.points += 200
      const cert: Certificate = {
        code: `CODE${c.id.toUpperCase()}`,
        course_id: c.id,
        course_title: c.title,
        learner_name: 'Dra. Lia Prado',
        hours: c.duration_minutes / 60,
        issued_at: c.completed_at,
        status: 'valid',
        revoked_at: null,
        verify_url: `/certificados/CODE${c.id.toUpperCase()}`,
        html_url: `/api/certificados/CODE${c.id.toUpperCase()}/imprimir`,
        pdf_url: `/api/certificados/CODE${c.id.toUpperCase()}/pdf`,
      }
      if (c.certificate) {
        c.my_certificate = cert
        state.certificates.push(cert)
      }
    }
    return {
      lesson: { id: l.id, is_completed: l.is_completed, position_seconds: l.position_seconds, percent: 0, watched: state.watched[l.id] ?? [] },
      course: {
        course_id: c.id,
        progress: c.progress,
        is_completed: c.is_completed,
        completed_lessons: c.completed_lessons,
        required_lessons: c.required_lessons,
        just_completed: justCompleted,
        points_awarded: points,
        certificate: c.my_certificate,
        continue: c.continue,
      },
    }
  }

  const handle = (call: Call): Reply => {
    const { method, path: p, search, body } = call
    if (method === 'GET' && p === '/api/auth/session') {
      return state.signedIn
        ? { status: 200, body: { user: { id: 'me', email: 'lia@vetclube.dev', provider: 'email', roles: ['user'], created_at: '2026-01-01T00:00:00Z' } } }
        : err(401, 'unauthorized', 'Usuário não autenticado')
    }
    if (method === 'GET' && p === '/api/points/balance') return { status: 200, body: { total_points: state.points } }
    let m = p.match(/^\/api\/certificados\/([^/]+)$/)
    if (m && method === 'GET') {
      const cert = state.certificates.find((x) => x.code === decodeURIComponent(m![1]!))
      if (!cert) return err(404, 'not_found', 'Certificado não encontrado.')
      return { status: 200, body: { status: cert.status, learner_name: cert.learner_name, course_title: cert.course_title, instructor_name: cert.instructor_name ?? '', hours: cert.hours, issued_at: cert.issued_at } }
    }
    if (!state.signedIn) return err(401, 'unauthorized', 'Usuário não autenticado')

    if (method === 'GET' && p === '/api/cursos') {
      let list = [...state.courses]
      const category = search.get('category')
      const level = search.get('level')
      const instructor = search.get('instructor')
      const status = search.get('status') ?? 'todos'
      const q = search.get('q')
      if (category && category !== 'Todos') list = list.filter((c) => c.category?.id === category)
      if (level && level !== 'Todos') list = list.filter((c) => c.level === level)
      if (instructor && instructor !== 'Todos') list = list.filter((c) => c.instructor?.id === instructor)
      if (status === 'enrolled') list = list.filter((c) => c.is_enrolled)
      if (status === 'completed') list = list.filter((c) => c.is_completed)
      if (status === 'favorites') list = list.filter((c) => c.is_favorite)
      if (q) list = list.filter((c) => fold(`${c.title} ${c.description} ${c.instructor?.name ?? ''}`).includes(fold(q)))
      const sort = search.get('sort') ?? 'popular'
      if (sort === 'popular') list.sort((a, b) => b.students - a.students)
      if (sort === 'newest') list.sort((a, b) => b.published_at.localeCompare(a.published_at))
      if (sort === 'rating') list.sort((a, b) => b.rating - a.rating)
      if (sort === 'title') list.sort((a, b) => a.title.localeCompare(b.title, 'pt-BR'))
      const page = Number(search.get('page') ?? 1)
      const items = list.slice((page - 1) * 20, page * 20)
      return { status: 200, body: { courses: items.map(card), page, page_size: 20, has_more: items.length === 20 } }
    }
    if (method === 'GET' && p === '/api/cursos/filtros') {
      const categories = [...new Map(state.courses.flatMap((c) => (c.category ? [[c.category.id, c.category]] : []))).values()]
      const instructors = [...new Map(state.courses.flatMap((c) => (c.instructor ? [[c.instructor.id, { id: c.instructor.id, name: c.instructor.name }]] : []))).values()]
      const levels = [...new Set(state.courses.map((c) => c.level))]
      return { status: 200, body: { categories, instructors, levels } }
    }
    if (method === 'GET' && p === '/api/cursos/estatisticas') {
      const enrolled = state.courses.filter((c) => c.is_enrolled)
      const completed = state.courses.filter((c) => c.is_completed)
      return {
        status: 200,
        body: {
          enrolled_courses: enrolled.length,
          completed_courses: completed.length,
          favorite_courses: state.courses.filter((c) => c.is_favorite).length,
          total_points: enrolled.length * 50 + completed.length * 200,
          average_progress: enrolled.length ? Math.round(enrolled.reduce((s, c) => s + c.progress, 0) / enrolled.length) : 0,
          completed_hours: completed.reduce((s, c) => s + Number(c.duration.split('h')[0] || 0), 0),
        },
      }
    }
    if (method === 'GET' && p === '/api/cursos/ultimo') {
      const c = state.lastCourseId ? find(state.lastCourseId) : undefined
      return { status: 200, body: { course: c ? { ...card(c), continue: c.continue, last_studied_at: '2026-11-20T10:00:00Z' } : null } }
    }
    if (method === 'GET' && p === '/api/me/certificados') {
      const years = new Map<number, number>()
      for (const c of state.certificates) if (c.status === 'valid') years.set(new Date(c.issued_at).getUTCFullYear(), (years.get(new Date(c.issued_at).getUTCFullYear()) ?? 0) + c.hours)
      return {
        status: 200,
        body: { certificates: state.certificates, hours_by_year: [...years].sort((a, b) => b[0] - a[0]).map(([year, hours]) => ({ year, hours })) },
      }
    }
    m = p.match(/^\/api\/cursos\/([^/]+)(?:\/(.*))?$/)
    if (m) {
      const c = find(decodeURIComponent(m[1]!))
      if (!c) return err(404, 'not_found', 'Curso não encontrado.')
      const rest = m[2] ?? ''
      if (method === 'GET' && rest === '') return { status: 200, body: detail(c) }
      if (method === 'POST' && rest === 'matricula') {
        if (c.is_enrolled) return { status: 200, body: { success: true, message: 'Você já está matriculado neste curso.', is_enrolled: true, progress: c.progress, points_awarded: 0 } }
        if (state.enrolLimitReached) {
          return err(403, 'forbidden', 'Você atingiu o limite de cursos do seu plano. Assine o Premium para se matricular em mais cursos.', { access: 'trial_limit' })
        }
        c.is_enrolled = true
        c.students += 1
        c.enrolled_at = new Date().toISOString()
        state.points += 50
        return { status: 200, body: { success: true, message: 'Matrícula realizada com sucesso!', is_enrolled: true, progress: c.progress, points_awarded: 50 } }
      }
      if (method === 'POST' && rest === 'favorito') {
        c.is_favorite = !c.is_favorite
        return { status: 200, body: { success: true, is_favorite: c.is_favorite, message: c.is_favorite ? 'Curso adicionado aos favoritos' : 'Curso removido dos favoritos' } }
      }
      const lm = rest.match(/^aulas\/([^/]+)(?:\/(progresso|concluir))?$/)
      if (lm) {
        const l = lessons(c).find((x) => x.id === decodeURIComponent(lm[1]!))
        if (!l) return err(404, 'not_found', 'Aula não encontrada.')
        if (!canAccess(c, l)) {
          return c.is_enrolled
            ? err(403, 'forbidden', 'Esta aula é exclusiva para assinantes Premium. Assine para continuar.', { access: 'premium_required' })
            : err(403, 'forbidden', 'Matricule-se no curso para assistir a esta aula.', { access: 'not_enrolled' })
        }
        if (method === 'GET' && !lm[2]) return { status: 200, body: lessonDetail(c, l) }
        if (method === 'PUT' && lm[2] === 'progresso') {
          const b = body as { position_seconds: number; duration_seconds: number; watched: Span[] }
          l.position_seconds = b.position_seconds
          const merged = mergeSpans([...(state.watched[l.id] ?? []), ...b.watched])
          state.watched[l.id] = merged
          const total = b.duration_seconds || l.duration_seconds
          if (total > 0 && merged.reduce((s, [a, e]) => s + e - a, 0) >= 0.9 * total) l.is_completed = true
          state.lastCourseId = c.id
          return { status: 200, body: progressAnswer(c, l) }
        }
        if (method === 'POST' && lm[2] === 'concluir') {
          l.is_completed = true
          state.lastCourseId = c.id
          return { status: 200, body: progressAnswer(c, l) }
        }
      }
    }
    m = p.match(/^\/api\/content\/cursos-aulas\/([^/]+)\/reaction$/)
    if (m && method === 'PUT') {
      const id = m[1]!
      const like = (body as { value: string | null }).value === 'like'
      if (!!state.liked[id] !== like) state.likes[id] = (state.likes[id] ?? 0) + (like ? 1 : -1)
      state.liked[id] = like
      return { status: 200, body: { likes: state.likes[id] ?? 0, dislikes: 0, favorites: 0, views: 0, favorited: false, reaction: like ? 'like' : '' } }
    }
    return err(404, 'not_found', 'não encontrado')
  }

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost')
    const call: Call = {
      method: init?.method ?? 'GET',
      path: url.pathname,
      search: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      init,
    }
    calls.push(call)
    const failure = options.fail?.(call)
    if (failure) return json(failure)
    return json(handle(call))
  })
  vi.stubGlobal('fetch', fetchMock)
  return { state, calls }
}
