import { expect, type BrowserContext } from '@playwright/test'
import { apiPost } from './users'

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
