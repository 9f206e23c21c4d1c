import { expect, test } from '@playwright/test'
import { signedInUser } from './support/users'

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`/debug shows the service worker and clears the cache (${viewport.width} px)`, async ({ page, context, request }) => {
    await page.setViewportSize(viewport)
    await signedInUser(context, request)
    await page.goto('/')
    // The production build registers the service worker; wait for it to take over.
    await page.waitForFunction(async () => !!(await navigator.serviceWorker.getRegistration())?.active, undefined, { timeout: 30_000 })
    // The app keeps the calculators' offline builds in the background after
    // the worker takes over; wait until that has settled, or it would write
    // its cache again right after 'Limpar cache'.
    await expect
      .poll(
        () =>
          page.evaluate(async () => {
            const count = async () =>
              (await caches.has('vetclube-tools-offline')) ? (await (await caches.open('vetclube-tools-offline')).keys()).length : 0
            const before = await count()
            await new Promise((resolve) => setTimeout(resolve, 1500))
            return before >= 2 && before === (await count())
          }),
        { timeout: 45_000 },
      )
      .toBe(true)
    // A cache of our own, so there is something to clear whatever the precache holds.
    await page.evaluate(async () => {
      const c = await caches.open('debug-e2e')
      await c.put('/debug-e2e', new Response('x'.repeat(2048)))
    })
    await page.goto('/debug')
    await expect(page.getByRole('heading', { name: 'Diagnóstico' })).toBeVisible()
    await expect(page.getByTestId('sw-state')).toHaveText(/ativo/)
    await expect(page.getByTestId('cache-list')).toContainText('debug-e2e: 1 itens')
    await expect(page.getByText(/Armazenamento usado/)).toBeVisible()
    await page.getByRole('button', { name: 'Limpar cache' }).click()
    await expect(page.getByTestId('cache-list')).toHaveText('nenhum')
    expect(await page.evaluate(() => caches.keys())).toEqual([])
    await page.getByRole('button', { name: 'Atualizar agora' }).click()
    await expect(page.getByText('Verificação de atualização concluída.')).toBeVisible()
    await context.grantPermissions(['clipboard-read', 'clipboard-write'])
    await page.getByRole('button', { name: 'Copiar diagnóstico' }).click()
    const text = await page.evaluate(() => navigator.clipboard.readText())
    expect(text).toContain('Diagnóstico VetClube')
    expect(text).toContain('Service worker: activated')
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  })
}
