import type { AdminItem } from '../../content/types'

/** The cursos plugin's type ids (plugins/cursos/cursos.go). */
export const COURSE = 'cursos'
export const MODULE = 'cursos-modulos'
export const LESSON = 'cursos-aulas'

/**
 * A child as its parent lists it. item is missing when the signed-in user
 * may not read it (an editor sees only their own items and those shared
 * with them): it keeps its place, and every save writes its id back.
 */
export interface Entry {
  id: string
  item?: AdminItem
}

export interface ModuleNode extends Entry {
  lessons: Entry[]
}

/**
 * A course's curriculum as the manager edits it: the modules and lessons in
 * their edited order, each with the working copy last read from the server
 * (whose children field holds the saved order).
 */
export interface Tree {
  course: AdminItem
  modules: ModuleNode[]
}

export const childIds = (item: AdminItem | undefined, field: 'modules' | 'lessons'): string[] => {
  const v = item?.fields?.[field]
  return Array.isArray(v) ? v.map(String) : []
}

/** Builds the tree from the course and the children this user could read. */
export function buildTree(course: AdminItem, modules: AdminItem[], lessons: AdminItem[]): Tree {
  const mods = new Map(modules.map((m) => [m.id, m]))
  const less = new Map(lessons.map((l) => [l.id, l]))
  return {
    course,
    modules: childIds(course, 'modules').map((id) => {
      const item = mods.get(id)
      return { id, item, lessons: childIds(item, 'lessons').map((lid) => ({ id: lid, item: less.get(lid) })) }
    }),
  }
}

// ---- Durations -------------------------------------------------------------

/** "12:30" or "1:05:00" → seconds (0 when empty or malformed), as the plugin reads it. */
export function parseDuration(s: unknown): number {
  if (typeof s !== 'string') return 0
  const parts = s.trim().split(':')
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => !/^\d+$/.test(p))) return 0
  return parts.reduce((total, p) => total * 60 + Number(p), 0)
}

/** A lesson's length in seconds: the computed field, or the typed duration before the first save computes it. */
export function lessonSeconds(e: Entry): number {
  const computed = e.item?.fields?.duration_seconds
  if (typeof computed === 'number' && computed > 0) return computed
  return parseDuration(e.item?.fields?.duration)
}

/** '45min', '1h', '1h30' ('' when nothing is known), as the app shows durations (core/courses LessonDuration). */
export function formatDuration(seconds: number): string {
  if (seconds <= 0) return ''
  const m = Math.floor((seconds + 30) / 60)
  if (m === 0) return `${seconds}s`
  if (m < 60) return `${m}min`
  if (m % 60 === 0) return `${m / 60}h`
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}`
}

export interface Totals {
  seconds: number
  lessons: number
  /** Lessons with no duration (or not readable): the sum leaves them out. */
  unknown: number
}

export function totalsOf(lessons: Entry[]): Totals {
  let seconds = 0
  let unknown = 0
  for (const l of lessons) {
    const s = lessonSeconds(l)
    seconds += s
    if (s === 0) unknown++
  }
  return { seconds, lessons: lessons.length, unknown }
}

export function courseTotals(t: Tree): Totals {
  return totalsOf(t.modules.flatMap((m) => m.lessons))
}

// ---- Moves -------------------------------------------------------------------

function move<T>(list: T[], from: number, to: number): T[] {
  const out = list.slice()
  const [x] = out.splice(from, 1)
  out.splice(to, 0, x)
  return out
}

export function moduleIndex(t: Tree, moduleId: string): number {
  return t.modules.findIndex((m) => m.id === moduleId)
}

/** Where lesson id is: its module's index and its index there (-1s when absent). */
export function findLesson(t: Tree, lessonId: string): { m: number; l: number } {
  for (let m = 0; m < t.modules.length; m++) {
    const l = t.modules[m].lessons.findIndex((x) => x.id === lessonId)
    if (l >= 0) return { m, l }
  }
  return { m: -1, l: -1 }
}

/** Module id to position `to` (clamped). */
export function moveModule(t: Tree, moduleId: string, to: number): Tree {
  const from = moduleIndex(t, moduleId)
  if (from < 0) return t
  const target = Math.max(0, Math.min(to, t.modules.length - 1))
  if (target === from) return t
  return { ...t, modules: move(t.modules, from, target) }
}

/** A module may receive lessons only when this user can read and so save it. */
export const acceptsLessons = (m: ModuleNode) => m.item !== undefined

/** Lesson id into module toModuleId at position `to` (clamped; its own module or another readable one). */
export function moveLesson(t: Tree, lessonId: string, toModuleId: string, to: number): Tree {
  const at = findLesson(t, lessonId)
  const dest = moduleIndex(t, toModuleId)
  if (at.m < 0 || dest < 0 || !acceptsLessons(t.modules[dest]) || !acceptsLessons(t.modules[at.m])) return t
  const lesson = t.modules[at.m].lessons[at.l]
  const modules = t.modules.map((m) => ({ ...m, lessons: m.lessons.slice() }))
  modules[at.m].lessons.splice(at.l, 1)
  const list = modules[dest].lessons
  const target = Math.max(0, Math.min(to, list.length))
  if (at.m === dest && target === at.l) return t
  list.splice(target, 0, lesson)
  return { ...t, modules }
}

export type Direction = -1 | 1

/** The module one step up or down, or undefined at the ends. */
export function stepModule(t: Tree, moduleId: string, dir: Direction): Tree | undefined {
  const i = moduleIndex(t, moduleId)
  const j = i + dir
  if (i < 0 || j < 0 || j >= t.modules.length) return undefined
  return moveModule(t, moduleId, j)
}

/**
 * The lesson one step up or down; past the first or last lesson of its
 * module it goes to the end of the previous (or the start of the next)
 * module that can receive it, so a keyboard alone can carry a lesson
 * anywhere. Undefined when there is nowhere to go.
 */
export function stepLesson(t: Tree, lessonId: string, dir: Direction): Tree | undefined {
  const at = findLesson(t, lessonId)
  if (at.m < 0 || !acceptsLessons(t.modules[at.m])) return undefined
  const own = t.modules[at.m]
  const j = at.l + dir
  if (j >= 0 && j < own.lessons.length) return moveLesson(t, lessonId, own.id, j)
  for (let m = at.m + dir; m >= 0 && m < t.modules.length; m += dir) {
    const next = t.modules[m]
    if (acceptsLessons(next)) return moveLesson(t, lessonId, next.id, dir < 0 ? next.lessons.length : 0)
  }
  return undefined
}

// ---- Saving ------------------------------------------------------------------

/** One save: the children of a course (modules) or of a module (lessons), in order. */
export interface Write {
  type: typeof COURSE | typeof MODULE
  field: 'modules' | 'lessons'
  item: AdminItem
  ids: string[]
}

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i])

/**
 * The saves that turn the server's order into the edited one, in a safe
 * order: modules that receive a lesson first, then those that lose or only
 * reorder theirs, the course last. A save that fails half-way then leaves a
 * moved lesson listed twice at worst (the app shows it once), never lost.
 */
export function writesFor(t: Tree): Write[] {
  const gaining: Write[] = []
  const others: Write[] = []
  for (const m of t.modules) {
    if (!m.item) continue
    const saved = childIds(m.item, 'lessons')
    const ids = m.lessons.map((l) => l.id)
    if (same(saved, ids)) continue
    const w: Write = { type: MODULE, field: 'lessons', item: m.item, ids }
    if (ids.some((id) => !saved.includes(id))) gaining.push(w)
    else others.push(w)
  }
  const out = [...gaining, ...others]
  const ids = t.modules.map((m) => m.id)
  if (!same(childIds(t.course, 'modules'), ids)) out.push({ type: COURSE, field: 'modules', item: t.course, ids })
  return out
}

/** Items whose working copy differs from what learners see (or who have never been published): lessons, modules, then the course. */
export function unpublished(t: Tree): { type: string; item: AdminItem }[] {
  const pending = (i: AdminItem | undefined): i is AdminItem => !!i && (!i.published || i.has_draft || i.status !== 'publicado')
  const lessons = t.modules.flatMap((m) => m.lessons.map((l) => l.item)).filter(pending)
  const modules = t.modules.map((m) => m.item).filter(pending)
  return [
    ...lessons.map((item) => ({ type: LESSON, item })),
    ...modules.map((item) => ({ type: MODULE, item })),
    ...(pending(t.course) ? [{ type: COURSE, item: t.course }] : []),
  ]
}

/** t with item (a saved course, module or lesson) in place of its old working copy. */
export function replaceItem(t: Tree, item: AdminItem): Tree {
  if (item.id === t.course.id) return { ...t, course: item }
  return {
    ...t,
    modules: t.modules.map((m) => ({
      ...m,
      item: m.id === item.id ? item : m.item,
      lessons: m.lessons.map((l) => (l.id === item.id ? { ...l, item } : l)),
    })),
  }
}
