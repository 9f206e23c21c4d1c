import { HttpError, type DataProvider } from 'ra-core'
import { httpClient } from '../../providers/httpClient'
import { resourceName, type AdminItem } from '../../content/types'
import { buildTree, childIds, COURSE, LESSON, MODULE, type Tree, type Write } from './curriculum'

/** GET /api/admin/courses/{id}/stats (core/courses Stats). */
export interface CourseStats {
  course_id: string
  title: string
  enrolments: number
  completions: number
  completion_rate: number
  average_progress: number
  drop_off: {
    lesson_id: string
    title: string
    module_title: string
    order: number
    required: boolean
    reached: number
    stopped: number
  }[]
}

/** The statistics, or null when the course was never published (the API answers 404). */
export async function courseStats(id: string): Promise<CourseStats | null> {
  try {
    return (await httpClient(`/api/admin/courses/${encodeURIComponent(id)}/stats`)).json as CourseStats
  } catch (e) {
    if (e instanceof HttpError && e.status === 404) return null
    throw e
  }
}

/** Reads the course, then its modules, then their lessons (working copies). */
export async function loadTree(dp: DataProvider, courseId: string): Promise<Tree> {
  const { data: course } = await dp.getOne<AdminItem>(resourceName(COURSE), { id: courseId })
  const moduleIds = childIds(course, 'modules')
  const modules = moduleIds.length ? (await dp.getMany<AdminItem>(resourceName(MODULE), { ids: moduleIds })).data : []
  const lessonIds = modules.flatMap((m) => childIds(m, 'lessons'))
  const lessons = lessonIds.length ? (await dp.getMany<AdminItem>(resourceName(LESSON), { ids: lessonIds })).data : []
  return buildTree(course, modules, lessons)
}

/** Saves one parent's children through the generic content API (PUT with the version read). */
export async function write(dp: DataProvider, w: Write): Promise<AdminItem> {
  const data = { ...w.item, fields: { ...w.item.fields, [w.field]: w.ids } }
  const { data: saved } = await dp.update<AdminItem>(resourceName(w.type), { id: w.item.id, data, previousData: w.item })
  return saved
}

/** Creates a module or a lesson as a draft with just its title; the key makes a retried click create once. */
export async function createChild(dp: DataProvider, type: typeof MODULE | typeof LESSON, title: string, idempotencyKey: string): Promise<AdminItem> {
  const { data } = await dp.create<AdminItem>(resourceName(type), {
    data: { title, summary: '', slug: '', fields: {} },
    meta: { idempotencyKey },
  })
  return data
}
