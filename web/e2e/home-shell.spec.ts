import { expect, test } from '@playwright/test'
import { signedInUser } from './support/users'

// index.html's home shell (public/theme-init.js + src/lib/homeShell.ts): a
// returning member's start at "/" paints the greeting and the cards' places
// from what the device kept, before the app's JavaScript has run.
test.use({ serviceWorkers: 'block' })

test('a returning member sees the greeting before the app chunk runs; a sign-out forgets it', async ({ page, context, request }) => {
  await signedInUser(context, request, { firstName: 'Clara' })
  // First visit: the app greets and keeps the name for the next start.
  await page.goto('/')
  await expect(page.getByText('Bem-vindo(a), Clara Veterinária!')).toBeVisible({ timeout: 30_000 })
  await expect.poll(() => page.evaluate(() => localStorage.getItem('vc-home-greeting'))).toContain('Clara Veterinária')

  // Next start with every script module held back: only index.html and
  // theme-init.js run, and the shell already greets.
  await page.route(/\/(assets|src)\/.*\.(js|tsx?)(\?.*)?$/, (route) => route.abort())
  await page.goto('/')
  const shell = page.locator('.vc-home-shell')
  await expect(shell).toBeVisible()
  await expect(page.locator('.vc-splash')).toBeHidden()
  await expect(shell).toContainText('Seu painel VetClube')
  const greeting = await shell.locator('.vc-shell-name').evaluate((el) => getComputedStyle(el, '::before').content)
  expect(greeting).toBe('"Clara Veterinária"')

  // The app takes over, then a sign-out forgets the greeting: the next start
  // shows the logo, never the previous member's name.
  await page.unroute(/\/(assets|src)\/.*\.(js|tsx?)(\?.*)?$/)
  await page.goto('/')
  await expect(page.getByRole('heading', { name: 'Seu painel VetClube' })).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText('Bem-vindo(a), Clara Veterinária!')).toBeVisible()
  await page.evaluate(async () => {
    const csrf = document.cookie.match(/(?:^|; )vc_csrf=([^;]+)/)?.[1] ?? ''
    await fetch('/api/auth/logout', { method: 'POST', headers: { 'X-CSRF-Token': decodeURIComponent(csrf) } })
  })
  // The app notices the session is gone on its next check (a reload).
  await page.goto('/landing')
  await expect.poll(() => page.evaluate(() => localStorage.getItem('vc-home-greeting'))).toBeNull()
})
