import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import { signedInUser } from './support/users'

// No page of the app is wider than the screen: at 320, 390 and 1280 px the
// document is exactly as wide as the viewport on every route the router
// declares (and every content type's page), for a signed-in member whose own
// profile carries a long title, with the dev seed's events, courses, feed and
// suggested colleagues. A route's parameters are filled with real seeded ids.

const routerSource = readFileSync(resolve(import.meta.dirname, '..', 'src', 'app', 'router.tsx'), 'utf8')

/** Every path the router declares: `path: '...'`, `soon('...')` and `inBackoffice('...')`. */
function declaredPaths(): string[] {
  const found = new Set<string>()
  for (const m of routerSource.matchAll(/(?:path:\s*|soon\(|inBackoffice\()'([^']+)'/g)) {
    const path = m[1]!
    if (path === '*' || !path.startsWith('/')) continue
    found.add(path)
  }
  return [...found]
}

async function json<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path)
  expect(res.ok(), `${path}: ${res.status()}`).toBe(true)
  return (await res.json()) as T
}

/** The declared paths with real ids, plus each content type's list and first item. */
async function routeList(request: APIRequestContext): Promise<string[]> {
  const session = await json<{ user: { id: string } }>(request, '/api/auth/session')
  const courses = await json<{ courses: { id: string }[] }>(request, '/api/cursos')
  const course = courses.courses[0]!.id
  const detail = await json<{ modules: { lessons: { id: string }[] }[] }>(request, `/api/cursos/${course}`)
  const lesson = detail.modules.flatMap((m) => m.lessons)[0]!.id
  const events = await json<{ events: { slug: string }[] }>(request, '/api/eventos?when=upcoming')
  const params: Record<string, string> = {
    ':id': course,
    ':lessonId': lesson,
    ':slug': '', // per route below
    ':userId': session.user.id,
    ':code': 'codigo-inexistente',
    ':token': 'token-invalido',
    ':attemptId': 'tentativa-inexistente',
  }
  const out: string[] = []
  for (const path of declaredPaths()) {
    let filled = path.replace(/\/\*$/, '')
    const slug = path.startsWith('/eventos/') ? events.events[0]!.slug : 'calculadoras'
    filled = filled.replace(':slug', slug)
    for (const [name, value] of Object.entries(params)) filled = filled.replace(name, value)
    out.push(filled)
  }
  const types = await json<{ id: string; route?: string }[]>(request, '/api/content/types')
  for (const type of types) {
    // Types with pages of their own in the router (courses, videos, events) are walked above.
    if (!type.route || out.some((path) => path === type.route || path.startsWith(`${type.route}/`))) continue
    out.push(type.route)
    const list = await json<{ items: { slug: string }[] }>(request, `/api/content/${type.id}`)
    if (list.items[0]) out.push(`${type.route}/${list.items[0].slug}`)
  }
  return [...new Set(out)]
}

/** Waits for the page to settle: a heading, an alert or the not-found page, and no loader left. */
async function settle(page: Page) {
  await expect(page.locator('h1, [role="alert"]').first()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByRole('status').filter({ hasText: 'Carregando...' })).toHaveCount(0, { timeout: 30_000 })
  // Lazy images and late cards change the width: let layout finish.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))
}

for (const width of [320, 390, 1280]) {
  test.describe(`nenhuma página mais larga que a tela (${width} px)`, () => {
    test.use({ viewport: { width, height: width < 1024 ? 844 : 900 } })
    // Every route, one signed-in context: a long walk on a shared machine.
    test.setTimeout(900_000)

    test('every route of the app fits the viewport', async ({ page, context, request }) => {
      await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
      await signedInUser(context, request, { firstName: 'Maximiliana', lastName: 'Albuquerque-Vasconcellos' })
      const profile = await context.request.put('/api/profile', {
        data: {
          first_name: 'Maximiliana',
          last_name: 'Albuquerque-Vasconcellos',
          title: 'Médica-veterinária especialista em clínica médica e cirúrgica de pequenos animais, dermatologia e oftalmologia',
        },
        headers: { 'X-CSRF-Token': (await context.cookies()).find((c) => c.name === 'vc_csrf')!.value },
      })
      expect(profile.status(), await profile.text()).toBe(200)
      const routes = await routeList(context.request)
      expect(routes.length).toBeGreaterThan(40)
      const wide: string[] = []
      for (const route of routes) {
        await page.goto(route)
        await settle(page)
        const { scroll, client } = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          client: document.documentElement.clientWidth,
        }))
        if (scroll !== client) wide.push(`${route}: ${scroll} px in ${client} px`)
      }
      expect(wide, 'pages wider than the screen').toEqual([])
    })
  })
}
