import { expect, test, type Page } from '@playwright/test'
import { signedInUser } from './support/users'

// build-plugins/signedInPreload.ts: a returning user's home chunks and first
// API reads start from /theme-init.js, before the main bundle runs, and the
// app then uses those responses instead of asking again. Visitors get none of it.
test.use({ serviceWorkers: 'block' })

function countRequests(page: Page, paths: string[]) {
  const counts = Object.fromEntries(paths.map((p) => [p, 0]))
  page.on('request', (req) => {
    const path = new URL(req.url()).pathname
    if (path in counts) counts[path]!++
  })
  return counts
}

const preloads = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll<HTMLLinkElement>('link[rel=modulepreload], link[rel=preload][as=fetch]')].map((l) => new URL(l.href).pathname))

test('a signed-in start preloads the home and its data, each fetched once', async ({ page, context, request }) => {
  await signedInUser(context, request, { firstName: 'Clara' })
  const counts = countRequests(page, ['/api/auth/session', '/api/profile', '/api/profile/completeness'])
  await page.goto('/')
  await expect(page.getByText('Bem-vindo(a), Clara Veterinária!')).toBeVisible()

  const links = await preloads(page)
  for (const chunk of [/\/assets\/AppLayout-[\w-]+\.js$/, /\/assets\/HomePage-[\w-]+\.js$/, /\/assets\/CheckinCard-[\w-]+\.js$/]) {
    expect(links.some((l) => chunk.test(l)), `modulepreload for ${chunk}`).toBe(true)
  }
  expect(links).toEqual(expect.arrayContaining(['/api/auth/session', '/api/profile', '/api/profile/completeness']))
  // The preloaded responses were consumed: no second request for any of them.
  await page.waitForLoadState('networkidle')
  expect(counts).toEqual({ '/api/auth/session': 1, '/api/profile': 1, '/api/profile/completeness': 1 })
})

test('a visitor preloads nothing of the signed-in app', async ({ page }) => {
  await page.goto('/landing')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  const links = await preloads(page)
  expect(links.filter((l) => /AppLayout|HomePage|CheckinCard|^\/api\//.test(l))).toEqual([])
  // Sanity: the list is read from the same page that has Vite's own preloads.
  expect(links.some((l) => /LandingPage-/.test(l))).toBe(true)
})
