import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { MemoryRouter, Route, Routes } from 'react-router-dom'
import { AdminContext } from 'react-admin'
import { QueryClient } from '@tanstack/react-query'
import { dataProvider } from '../../providers/dataProvider'
import { i18nProvider } from '../../providers/i18nProvider'
import { clearCookies, scriptFetch, setCookie, type Call } from '../../providers/testServer'
import type { AdminItem, ContentType } from '../../content/types'
import { contentResources, customViewsFor } from '../../content/resources'
import CurriculumManager from './CurriculumManager'
import { managerPath } from './index'
import { buildTree, formatDuration, parseDuration, stepLesson, writesFor, type Tree } from './curriculum'
import { T } from './texts'

const courseType: ContentType = {
  id: 'cursos',
  singular: 'Curso',
  plural: 'Cursos',
  icon: 'graduation-cap',
  route: '/cursos',
  fields: [],
  list: { default_sort: { field: 'published_at', desc: true }, page_size: 20 },
  workflow: 'editorial',
}

function item(type: string, id: string, title: string, version: number, fields: Record<string, unknown>, over: Partial<AdminItem> = {}): AdminItem {
  return {
    id,
    type,
    status: 'publicado',
    status_label: 'Publicado',
    version,
    slug: id,
    title,
    summary: '',
    fields,
    published: true,
    has_draft: false,
    created_at: '2026-11-01T12:00:00Z',
    updated_at: '2026-11-01T12:00:00Z',
    actions: [],
    ...over,
  }
}

/** The content API as far as the manager uses it: reads, versioned saves (409 when stale), creates and the statistics. */
function fakeServer(opts: { stats?: unknown; statsStatus?: number } = {}) {
  const items = new Map<string, AdminItem>()
  const put = (it: AdminItem) => items.set(it.id, it)
  put(
    item('cursos', 'c1', 'Emergências em pequenos animais', 5, { description: 'Curso de emergências.', modules: ['m1', 'm2'], level: 'Iniciante' }, {
      actions: [{ action: 'unpublish', label: 'Despublicar' }],
    }),
  )
  put(item('cursos-modulos', 'm1', 'Módulo A', 3, { description: 'Triagem', lessons: ['l1', 'l2'] }))
  put(item('cursos-modulos', 'm2', 'Módulo B', 4, { lessons: ['l3'] }))
  put(item('cursos-aulas', 'l1', 'Aula 1', 2, { duration: '10:00', duration_seconds: 600, is_free: true }))
  // Never saved since its duration was typed: no computed seconds yet.
  put(item('cursos-aulas', 'l2', 'Aula 2', 1, { duration: '20:00' }, { status: 'rascunho', status_label: 'Rascunho', published: false }))
  put(item('cursos-aulas', 'l3', 'Aula 3', 7, { duration: '1:30:00', duration_seconds: 5400, is_optional: true }))
  const byKey = new Map<string, AdminItem>()
  const calls = scriptFetch((call: Call) => {
    const m = call.path.match(/^\/api\/admin\/content\/([^/]+)(?:\/([^/]+))?$/)
    if (call.method === 'GET' && call.path === '/api/admin/courses/c1/stats') {
      return opts.statsStatus ? { status: opts.statsStatus, json: { error: { code: 'not_found', message: 'Curso não encontrado.' } } } : { status: 200, json: opts.stats ?? stats }
    }
    if (call.method === 'POST' && call.path === '/api/admin/content/cursos/c1/preview') return { status: 200, json: { token: 'tok1', expires_at: '2026-11-02T12:00:00Z' } }
    if (!m) return undefined
    const [, type, id] = m
    if (call.method === 'GET' && id) {
      const it = items.get(id)
      return it && it.type === type ? { status: 200, json: it } : { status: 404, json: { error: { code: 'not_found', message: 'Conteúdo não encontrado.' } } }
    }
    if (call.method === 'PUT' && id) {
      const it = items.get(id)!
      const body = JSON.parse(call.body)
      if (body.version !== it.version) {
        return { status: 409, json: { error: { code: 'conflict', message: 'Este conteúdo foi alterado por outra pessoa desde que você o abriu.' } } }
      }
      const next = { ...it, title: body.title, fields: body.fields, version: it.version + 1, status: 'rascunho' as const, has_draft: it.published }
      put(next)
      return { status: 200, json: next }
    }
    if (call.method === 'POST' && !id) {
      // As the API: the same idempotency key answers the item it created.
      const key = call.headers.get('Idempotency-Key') ?? ''
      const again = byKey.get(key)
      if (again) return { status: 200, json: again }
      const body = JSON.parse(call.body)
      const it = item(type, `n${byKey.size + 1}`, body.title, 1, {}, { status: 'rascunho', status_label: 'Rascunho', published: false })
      put(it)
      byKey.set(key, it)
      return { status: 201, json: it }
    }
    return undefined
  })
  return { calls, items, put }
}

const stats = {
  course_id: 'c1',
  title: 'Emergências em pequenos animais',
  enrolments: 40,
  completions: 18,
  completion_rate: 45,
  average_progress: 62.5,
  drop_off: [
    { lesson_id: 'l1', title: 'Aula 1', module_title: 'Módulo A', order: 1, required: true, reached: 35, stopped: 5 },
    { lesson_id: 'l3', title: 'Aula 3', module_title: 'Módulo B', order: 2, required: false, reached: 12, stopped: 17 },
  ],
}

beforeEach(() => {
  clearCookies()
  setCookie('vc_csrf=csrf1; path=/')
})

;(globalThis as any).IS_REACT_ACT_ENVIRONMENT = true
let root: Root | null = null
afterEach(() => {
  act(() => root?.unmount())
  root = null
  document.body.innerHTML = ''
  vi.unstubAllGlobals()
})

async function render(node: ReactNode, path = '/content/cursos/c1/gerenciar') {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const container = document.createElement('div')
  document.body.appendChild(container)
  root = createRoot(container)
  await act(async () => {
    root!.render(
      <MemoryRouter initialEntries={[path]}>
        <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} queryClient={queryClient}>
          <Routes>
            <Route path="/content/cursos/:id/gerenciar" element={node} />
          </Routes>
        </AdminContext>
      </MemoryRouter>,
    )
  })
  return container
}

const texts = () => Array.from(document.body.querySelectorAll('*')).filter((e) => e.children.length === 0).map((e) => e.textContent ?? '')
const byLabel = (label: string) => document.body.querySelector<HTMLButtonElement>(`[aria-label="${label}"]`)
const button = (text: string) => Array.from(document.body.querySelectorAll('button')).find((b) => b.textContent === text)
const moduleTotals = () => Array.from(document.body.querySelectorAll('[data-testid="module-totals"]')).map((e) => e.textContent)
const lessonsOf = (module: string) =>
  Array.from(document.body.querySelectorAll(`ol[aria-label="${T.lessonsOf(module)}"] > li`)).map((li) => li.querySelector('p')?.textContent)
const modules = () => Array.from(document.body.querySelectorAll(`ol[aria-label="${T.modules}"] h3`)).map((h) => h.textContent)

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 10))
    })
  }
  expect(check()).toBe(true)
}

async function click(el: HTMLElement | null | undefined) {
  expect(el).toBeTruthy()
  await act(async () => el!.click())
}

async function type(input: HTMLInputElement, value: string) {
  await act(async () => {
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value)
    input.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

const puts = (calls: Call[]) => calls.filter((c) => c.method === 'PUT').map((c) => ({ path: c.path, body: JSON.parse(c.body) }))

async function open() {
  await render(<CurriculumManager type={courseType} />)
  await until(() => modules().length === 2)
}

describe('curriculum rules', () => {
  it('shows durations the way the app does', () => {
    expect(parseDuration('12:30')).toBe(750)
    expect(parseDuration('1:05:00')).toBe(3900)
    expect(parseDuration('12')).toBe(0)
    expect(parseDuration('ab:cd')).toBe(0)
    expect(formatDuration(0)).toBe('')
    expect(formatDuration(45 * 60)).toBe('45min')
    expect(formatDuration(3600)).toBe('1h')
    expect(formatDuration(5400)).toBe('1h30')
    expect(formatDuration(3600 + 5 * 60 + 29)).toBe('1h05')
    expect(formatDuration(20)).toBe('20s')
  })

  it('keeps children this user cannot read in place and writes their ids back', () => {
    const course = item('cursos', 'c1', 'Curso', 2, { modules: ['m1', 'hidden-m'] })
    const m1 = item('cursos-modulos', 'm1', 'M1', 1, { lessons: ['a', 'hidden-l', 'b'] })
    const tree: Tree = buildTree(course, [m1], [item('cursos-aulas', 'a', 'A', 1, {}), item('cursos-aulas', 'b', 'B', 1, {})])
    expect(tree.modules[1]).toEqual({ id: 'hidden-m', item: undefined, lessons: [] })
    expect(writesFor(tree)).toEqual([])
    const moved = stepLesson(tree, 'b', -1)!
    expect(writesFor(moved)).toEqual([{ type: 'cursos-modulos', field: 'lessons', item: m1, ids: ['a', 'b', 'hidden-l'] }])
    // Past the last readable module there is nowhere to go: a module nobody can save receives nothing.
    expect(stepLesson(moved, 'hidden-l', 1)).toBeUndefined()
  })
})

describe('curriculum manager', () => {
  it('sums durations per module and for the course, and again after a lesson moves', async () => {
    fakeServer()
    await open()
    expect(modules()).toEqual(['Módulo 1: Módulo A', 'Módulo 2: Módulo B'])
    expect(moduleTotals()).toEqual(['2 aulas · Duração: 30min', '1 aula · Duração: 1h30'])
    expect(document.body.querySelector('[data-testid="course-totals"]')?.textContent).toBe('Total do curso: 3 aulas · Duração: 2h')
    expect(texts()).toContain(T.publishNote)
    // The last lesson of a module goes down into the next one.
    await click(byLabel('Mover «Aula 2» para baixo'))
    expect(lessonsOf('Módulo A')).toEqual(['1. Aula 1'])
    expect(lessonsOf('Módulo B')).toEqual(['1. Aula 2', '2. Aula 3'])
    expect(moduleTotals()).toEqual(['1 aula · Duração: 10min', '2 aulas · Duração: 1h50'])
    expect(document.body.querySelector('[data-testid="course-totals"]')?.textContent).toBe('Total do curso: 3 aulas · Duração: 2h')
    expect(document.activeElement?.getAttribute('aria-label')).toBe('Mover «Aula 2» para baixo')
    expect(texts()).toContain('«Aula 2» na posição 1 de 2 em «Módulo B».')
    expect(texts()).toContain(T.unsaved)
    // Undo puts the saved order back.
    await click(button(T.undo))
    expect(lessonsOf('Módulo A')).toEqual(['1. Aula 1', '2. Aula 2'])
    expect(texts()).not.toContain(T.unsaved)
  })

  it('reorders modules and lessons with the keyboard buttons and saves each changed parent with its version', async () => {
    const { calls } = fakeServer()
    await open()
    expect(byLabel('Mover «Módulo A» para cima')?.disabled).toBe(true)
    expect(byLabel('Mover «Aula 1» para cima')?.disabled).toBe(true)
    expect(byLabel('Mover «Aula 3» para baixo')?.disabled).toBe(true)
    await click(byLabel('Mover «Módulo B» para cima'))
    expect(modules()).toEqual(['Módulo 1: Módulo B', 'Módulo 2: Módulo A'])
    await click(byLabel('Mover «Aula 1» para baixo'))
    expect(lessonsOf('Módulo A')).toEqual(['1. Aula 2', '2. Aula 1'])
    expect(puts(calls)).toEqual([])
    await click(button(T.save))
    await until(() => texts().includes(T.saved) || !texts().includes(T.unsaved))
    expect(puts(calls)).toEqual([
      {
        path: '/api/admin/content/cursos-modulos/m1',
        body: { version: 3, slug: 'm1', title: 'Módulo A', summary: '', fields: { description: 'Triagem', lessons: ['l2', 'l1'] } },
      },
      {
        path: '/api/admin/content/cursos/c1',
        body: {
          version: 5,
          slug: 'c1',
          title: 'Emergências em pequenos animais',
          summary: '',
          fields: { description: 'Curso de emergências.', modules: ['m2', 'm1'], level: 'Iniciante' },
        },
      },
    ])
    const put = calls.find((c) => c.method === 'PUT')!
    expect(put.headers.get('X-CSRF-Token')).toBe('csrf1')
    // Reloaded from the server: the saved order, nothing pending, the changed items listed for publication.
    await until(() => !texts().includes(T.unsaved))
    expect(modules()).toEqual(['Módulo 1: Módulo B', 'Módulo 2: Módulo A'])
    expect(lessonsOf('Módulo A')).toEqual(['1. Aula 2', '2. Aula 1'])
    const sections = Array.from(document.body.querySelectorAll('section[aria-label]')).map((s) => s.getAttribute('aria-label'))
    expect(sections).toEqual(['Aula: Aula 2', 'Módulo: Módulo A', 'Curso: Emergências em pequenos animais'])
    expect(button('Despublicar')).toBeDefined()
  })

  it('moves a lesson to another module from the menu: the receiving module is saved first', async () => {
    const { calls } = fakeServer()
    await open()
    await click(byLabel('Mover «Aula 3» para outro módulo'))
    const choice = Array.from(document.body.querySelectorAll('[role="menuitem"]')).find((e) => e.textContent === 'Módulo 1: Módulo A')
    await click(choice as HTMLElement)
    expect(lessonsOf('Módulo A')).toEqual(['1. Aula 1', '2. Aula 2', '3. Aula 3'])
    expect(texts()).toContain(T.noLessons)
    expect(moduleTotals()).toEqual(['3 aulas · Duração: 2h', '0 aulas · Duração: —'])
    await click(button(T.save))
    await until(() => puts(calls).length === 2)
    expect(puts(calls).map((p) => [p.path, p.body.version, p.body.fields.lessons])).toEqual([
      ['/api/admin/content/cursos-modulos/m1', 3, ['l1', 'l2', 'l3']],
      // An empty list is left out: the module keeps no lessons.
      ['/api/admin/content/cursos-modulos/m2', 4, undefined],
    ])
  })

  it('says clearly when someone else changed the curriculum, and reloads it', async () => {
    const { calls, items, put } = fakeServer()
    await open()
    // Another editor saves module A meanwhile.
    put({ ...items.get('m1')!, version: 9, fields: { lessons: ['l2', 'l1'] } })
    await click(byLabel('Mover «Módulo B» para cima'))
    await click(byLabel('Mover «Aula 3» para outro módulo'))
    await click(Array.from(document.body.querySelectorAll('[role="menuitem"]')).find((e) => e.textContent === 'Módulo 2: Módulo A') as HTMLElement)
    await click(button(T.save))
    await until(() => texts().includes(T.conflict))
    expect(document.body.querySelector('[role="alert"]')?.textContent).toBe(T.conflict)
    expect(puts(calls).map((p) => [p.path, p.body.version])).toEqual([['/api/admin/content/cursos-modulos/m1', 3]])
    // The current curriculum is shown, with no pending moves.
    await until(() => lessonsOf('Módulo A').join() === '1. Aula 2,2. Aula 1')
    expect(modules()).toEqual(['Módulo 1: Módulo A', 'Módulo 2: Módulo B'])
    expect(texts()).not.toContain(T.unsaved)
  })

  it('adds a module as a draft and lists it in the course at once, creating it once even when retried', async () => {
    const { calls, items, put } = fakeServer()
    await open()
    const input = Array.from(document.body.querySelectorAll<HTMLInputElement>('input')).find(
      (i) => document.body.querySelector(`label[for="${i.id}"]`)?.textContent === T.newModule,
    )!
    await type(input, 'Módulo C')
    // Someone saves the course meanwhile: listing the new module is refused once.
    put({ ...items.get('c1')!, version: 6 })
    await click(button(T.addModule))
    await until(() => texts().includes(T.conflict))
    await click(button(T.addModule))
    await until(() => modules().length === 3)
    const posts = calls.filter((c) => c.method === 'POST')
    expect(posts).toHaveLength(2)
    expect(posts[0].path).toBe('/api/admin/content/cursos-modulos')
    expect(JSON.parse(posts[0].body)).toEqual({ slug: '', title: 'Módulo C', summary: '', fields: {} })
    expect(posts[0].headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/)
    expect(posts[1].headers.get('Idempotency-Key')).toBe(posts[0].headers.get('Idempotency-Key'))
    expect(puts(calls).map((p) => [p.path, p.body.version, p.body.fields.modules])).toEqual([
      ['/api/admin/content/cursos/c1', 5, ['m1', 'm2', 'n1']],
      ['/api/admin/content/cursos/c1', 6, ['m1', 'm2', 'n1']],
    ])
    expect(modules()[2]).toBe('Módulo 3: Módulo C')
    expect([...items.keys()].filter((k) => k.startsWith('n'))).toEqual(['n1'])
    expect(input.value).toBe('')
    expect(texts()).not.toContain(T.unsaved)
  })

  it('adds a lesson to a module the same way', async () => {
    const { calls } = fakeServer()
    await open()
    const input = Array.from(document.body.querySelectorAll<HTMLInputElement>('input')).find(
      (i) => document.body.querySelector(`label[for="${i.id}"]`)?.textContent === T.newLesson('Módulo B'),
    )!
    await type(input, 'Choque séptico')
    const form = input.closest('form')!
    await click(Array.from(form.querySelectorAll('button')).find((b) => b.textContent === T.addLesson))
    await until(() => lessonsOf('Módulo B').length === 2)
    expect(lessonsOf('Módulo B')).toEqual(['1. Aula 3', '2. Choque séptico'])
    expect(calls.find((c) => c.method === 'POST')?.path).toBe('/api/admin/content/cursos-aulas')
    expect(puts(calls).map((p) => [p.path, p.body.version, p.body.fields.lessons])).toEqual([['/api/admin/content/cursos-modulos/m2', 4, ['l3', 'n1']]])
    expect(moduleTotals()[1]).toBe('2 aulas · Duração: 1h30 · 1 aula sem duração informada')
  })

  it('shows what the API refuses in an added title', async () => {
    const { calls } = fakeServer()
    await open()
    const input = Array.from(document.body.querySelectorAll<HTMLInputElement>('input')).find(
      (i) => document.body.querySelector(`label[for="${i.id}"]`)?.textContent === T.newModule,
    )!
    // A title over the limit the API allows (the box itself stops at 200 characters when typed).
    calls.length = 0
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        new Response(JSON.stringify({ error: { code: 'invalid', message: 'Verifique os campos destacados.', fields: { title: 'O título pode ter até 200 caracteres.' } } }), {
          status: 422,
          headers: { 'Content-Type': 'application/json' },
        }),
      ),
    )
    await type(input, 'Módulo novo')
    await click(button(T.addModule))
    await until(() => texts().includes('O título pode ter até 200 caracteres.'))
    expect(input.value).toBe('Módulo novo')
    expect(modules()).toHaveLength(2)
  })

  it('opens the preview of the course from the manager', async () => {
    const { calls } = fakeServer()
    const opened = vi.fn()
    vi.stubGlobal('open', opened)
    await open()
    await click(button('Pré-visualizar'))
    await until(() => opened.mock.calls.length === 1)
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/admin/content/cursos/c1/preview')).toBe(true)
    expect(opened).toHaveBeenCalledWith('/pre-visualizacao/tok1', '_blank', 'noopener')
  })
})

describe('course views', () => {
  it('reach the manager at #/content/cursos/{id}/gerenciar, ahead of the edit page', async () => {
    const views = customViewsFor('cursos')
    expect(views.Edit).toBeDefined()
    expect(managerPath('c1')).toBe('/content/cursos/c1/gerenciar')
    fakeServer()
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
    const container = document.createElement('div')
    document.body.appendChild(container)
    root = createRoot(container)
    await act(async () => {
      root!.render(
        <MemoryRouter initialEntries={['/content/cursos/c1/gerenciar']}>
          <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} queryClient={queryClient}>
            <Routes>
              <Route path="/content/cursos/*" element={contentResources([courseType])[0]} />
            </Routes>
          </AdminContext>
        </MemoryRouter>,
      )
    })
    await until(() => modules().length === 2)
    const back = Array.from(document.body.querySelectorAll('a')).find((a) => a.textContent === T.backToCourse)
    expect(back?.getAttribute('href')).toBe('/content/cursos/c1')
  })
})

describe('course statistics', () => {
  it('show enrolments, completion, average progress and where learners stop', async () => {
    fakeServer()
    await open()
    await until(() => texts().includes(T.dropOff))
    const figures = Array.from(document.body.querySelectorAll('dl dt')).map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])
    expect(figures).toEqual([
      ['Matrículas', '40'],
      ['Conclusões', '18'],
      ['Taxa de conclusão', '45%'],
      ['Progresso médio', '62,5%'],
    ])
    const table = document.body.querySelector('table[aria-labelledby="course-dropoff-title"]')!
    const rows = Array.from(table.querySelectorAll('tbody tr')).map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent))
    expect(rows).toEqual([
      ['1', 'Aula 1', 'Módulo A', '35', '5'],
      ['2', 'Aula 3 (opcional)', 'Módulo B', '12', '17'],
    ])
  })

  it('say so when the course was never published', async () => {
    fakeServer({ statsStatus: 404 })
    await open()
    await until(() => texts().includes(T.statsNone))
  })
})
