// Pure helpers of the courses screens: the catalogue's filters in the URL and
// in the request, and the pt-BR formatting of numbers, hours and dates.

export type CourseStatus = 'todos' | 'enrolled' | 'completed' | 'favorites'
export type CourseSort = 'popular' | 'newest' | 'rating' | 'title'

/** The catalogue's filters; '' for category, level and instructor is 'Todos' (no filter). */
export interface CourseQuery {
  category: string
  level: string
  instructor: string
  status: CourseStatus
  q: string
  sort: CourseSort
}

export const DEFAULT_QUERY: CourseQuery = { category: '', level: '', instructor: '', status: 'todos', q: '', sort: 'popular' }

/** Pages of 20 courses; the description preview is 100 characters. */
export const PAGE_SIZE = 20
export const DESCRIPTION_PREVIEW = 100
/** VetCoins per enrolment and per completion. */
export const ENROL_POINTS = 50
export const COMPLETION_POINTS = 200

/** The label 'Todos' of every filter. */
export const ALL = 'Todos'

// Each option: the API's value, its label, and its word in the page's URL
// ('' for the default, which the URL leaves out).
export const STATUS_OPTIONS: ReadonlyArray<{ value: CourseStatus; label: string; url: string }> = [
  { value: 'todos', label: 'Todos', url: '' },
  { value: 'enrolled', label: 'Matriculados', url: 'matriculados' },
  { value: 'completed', label: 'Concluídos', url: 'concluidos' },
  { value: 'favorites', label: 'Favoritos', url: 'favoritos' },
]

export const SORT_OPTIONS: ReadonlyArray<{ value: CourseSort; label: string; url: string }> = [
  { value: 'popular', label: 'Mais populares', url: '' },
  { value: 'newest', label: 'Mais recentes', url: 'recentes' },
  { value: 'rating', label: 'Melhor avaliados', url: 'avaliacao' },
  { value: 'title', label: 'Título', url: 'titulo' },
]

/** Names of the page's query-string parameters (pt-BR, shareable). */
export const URL_PARAMS = { category: 'categoria', level: 'nivel', instructor: 'instrutor', status: 'status', q: 'busca', sort: 'ordem' } as const

const noFilter = (v: string | null) => (!v || v === ALL ? '' : v)

/** The filters a /cursos URL carries; unknown words fall back to the defaults. */
export function parseQuery(params: URLSearchParams): CourseQuery {
  const status = STATUS_OPTIONS.find((o) => o.url && o.url === params.get(URL_PARAMS.status))?.value ?? 'todos'
  const sort = SORT_OPTIONS.find((o) => o.url && o.url === params.get(URL_PARAMS.sort))?.value ?? 'popular'
  return {
    category: noFilter(params.get(URL_PARAMS.category)),
    level: noFilter(params.get(URL_PARAMS.level)),
    instructor: noFilter(params.get(URL_PARAMS.instructor)),
    status,
    q: (params.get(URL_PARAMS.q) ?? '').trim(),
    sort,
  }
}

/** The /cursos query string for q: defaults and 'Todos' are left out. */
export function toSearchParams(q: CourseQuery): URLSearchParams {
  const out = new URLSearchParams()
  if (q.category) out.set(URL_PARAMS.category, q.category)
  if (q.level) out.set(URL_PARAMS.level, q.level)
  if (q.instructor) out.set(URL_PARAMS.instructor, q.instructor)
  const status = STATUS_OPTIONS.find((o) => o.value === q.status)?.url
  if (status) out.set(URL_PARAMS.status, status)
  if (q.q.trim()) out.set(URL_PARAMS.q, q.q.trim())
  const sort = SORT_OPTIONS.find((o) => o.value === q.sort)?.url
  if (sort) out.set(URL_PARAMS.sort, sort)
  return out
}

/** GET /api/cursos for one page of q: 'Todos' filters are not sent at all. */
export function listURL(q: CourseQuery, page: number): string {
  const out = new URLSearchParams()
  if (q.category) out.set('category', q.category)
  if (q.level) out.set('level', q.level)
  if (q.instructor) out.set('instructor', q.instructor)
  if (q.status !== 'todos') out.set('status', q.status)
  if (q.q) out.set('q', q.q)
  out.set('sort', q.sort)
  out.set('page', String(page))
  return `/api/cursos?${out.toString()}`
}

export function hasFilters(q: CourseQuery): boolean {
  return !!(q.category || q.level || q.instructor || q.status !== 'todos' || q.q)
}

/**
 * At most `max` characters (whole code points) and '…' when cut. The server
 * already sends the 100-character preview with its '…': that one is kept as is.
 */
export function preview(text: string, max = DESCRIPTION_PREVIEW): string {
  const chars = Array.from(text.trim())
  if (chars.length <= max) return chars.join('')
  if (chars.length === max + 1 && chars[max] === '…') return chars.join('')
  return chars.slice(0, max).join('').trimEnd() + '…'
}

const decimal = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 })
const integer = new Intl.NumberFormat('pt-BR')

export function formatRating(rating: number): string {
  return new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(rating)
}

export function formatNumber(n: number): string {
  return integer.format(n)
}

export function studentsLabel(n: number): string {
  return n === 1 ? '1 aluno' : `${integer.format(n)} alunos`
}

/** '1 hora', '1,5 hora', '12 horas'. */
export function hoursLabel(hours: number): string {
  return `${decimal.format(hours)} ${hours >= 2 ? 'horas' : 'hora'}`
}

/** '25 de novembro de 2026' (the date in the reader's time zone). */
export function formatDate(iso: string): string {
  return new Intl.DateTimeFormat('pt-BR', { day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(iso))
}

export function clampPercent(n: number): number {
  return Math.max(0, Math.min(100, Math.round(n)))
}
