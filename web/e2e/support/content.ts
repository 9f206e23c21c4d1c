import { expect, type Browser, type BrowserContext } from '@playwright/test'
import { apiPost, signedInUser, type TestUser } from './users'

/**
 * Creates a content item through the backoffice API as admin (a revisor or
 * super admin) and moves it through submit, approve and publish, as the
 * editorial workflow requires; returns its id.
 */
export async function published(admin: BrowserContext, type: string, title: string, fields: Record<string, unknown>): Promise<string> {
  const created = await apiPost(admin, `/api/admin/content/${type}`, { title, fields })
  expect(created.status(), await created.text()).toBe(201)
  let item = (await created.json()) as { id: string; version: number }
  for (const action of ['submit', 'approve', 'publish']) {
    const res = await apiPost(admin, `/api/admin/content/${type}/${item.id}/actions/${action}`, { version: item.version })
    expect(res.status(), `${type} ${action}: ${await res.text()}`).toBe(200)
    item = await res.json()
  }
  return item.id
}

/**
 * A new member, signed in (the push prompt dismissed), who enrolls in course
 * on its page. The page's console errors are collected, since a CSP or CORS
 * refusal of a stream shows only there.
 */
export async function enrolledLearner(browser: Browser, course: string, name: Partial<TestUser>, baseURL?: string) {
  const learner = await browser.newContext(baseURL ? { baseURL } : {})
  await learner.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
  await signedInUser(learner, learner.request, name)
  const page = await learner.newPage()
  const consoleErrors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text())
  })
  await page.goto(`/cursos/${course}`)
  await page.getByRole('button', { name: 'Matricular-se' }).click()
  await expect(page.getByText('Matrícula realizada com sucesso!')).toBeVisible()
  return { learner, page, consoleErrors }
}
