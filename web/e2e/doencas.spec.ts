import { expect, test } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { signedInUser } from './support/users'

// The diseases reference (plugins/doencas): the dev seed publishes its first
// edition through the editorial workflow, the plugin's search projection
// follows, and a member finds a disease by its name, misspelt, or without
// accents, opens its page and keeps it among their favourites, on a phone
// and on a desktop.

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test.describe(`doenças at ${viewport.width} px`, () => {
    test.use({ viewport })
    // Near 30 s on an idle machine; the margin covers a shared, loaded one.
    test.setTimeout(90_000)

    test("'cinomose' and a misspelt 'sinomose' find distemper; its page opens and becomes a favourite", async ({ page, context, request }) => {
      await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
      await signedInUser(context, request)

      await page.goto('/ferramentas/doencas')
      await expect(page.getByRole('heading', { level: 1, name: 'Doenças' })).toBeVisible({ timeout: 30_000 })
      const results = page.getByRole('list', { name: 'Doenças' })
      await expect(results.getByRole('listitem').first()).toBeVisible()

      const search = page.getByLabel('Buscar doença')
      const answer = (q: string) => page.waitForResponse((r) => r.url().includes(`/api/tools/doencas/doencas?q=${q}`) && r.ok())
      await Promise.all([answer('cinomose'), search.fill('cinomose')])
      await expect(page).toHaveURL(/[?&]q=cinomose/)
      await expect(results.getByRole('link').first()).toHaveText('Cinomose')

      // Misspelt (one letter wrong); the first answer is the right disease.
      await Promise.all([answer('sinomose'), search.fill('sinomose')])
      await expect(page).toHaveURL(/[?&]q=sinomose/)
      const first = results.getByRole('link').first()
      await expect(first).toHaveText('Cinomose')
      await expectNoSeriousA11yViolations(page, `busca de doenças (${viewport.width} px)`)

      await first.click()
      await expect(page).toHaveURL(/\/ferramentas\/doencas\/cinomose$/)
      await expect(page.getByRole('heading', { level: 2, name: 'Cinomose' })).toBeVisible()
      for (const section of ['Transmissão', 'Sinais clínicos', 'Diagnóstico', 'Princípios de tratamento', 'Prevenção e controle', 'Referências']) {
        await expect(page.getByRole('heading', { level: 3, name: section })).toBeVisible()
      }
      await expect(page.getByText(/mioclonias/).first()).toBeVisible()

      const favorite = page.getByRole('button', { name: 'Favoritar', exact: true })
      await expect(favorite).toHaveAttribute('aria-pressed', 'false')
      await favorite.click()
      await expect(favorite).toHaveAttribute('aria-pressed', 'true')
      await expectNoSeriousA11yViolations(page, `página de doença (${viewport.width} px)`)

      // The favourite is kept: the list of favourites shows it after a reload.
      await expect(page.getByRole('link', { name: 'Todas as doenças' })).toHaveAttribute('href', '/ferramentas/doencas')
      await page.goto('/ferramentas/doencas?favoritas=true')
      await expect(results.getByRole('link')).toHaveCount(1)
      await expect(results.getByRole('link')).toHaveText('Cinomose')
      await expect(results.getByRole('button', { name: 'Favoritar Cinomose' })).toHaveAttribute('aria-pressed', 'true')

      // A notifiable disease shows its duty and deadline.
      await page.goto('/ferramentas/doencas/mormo')
      await expect(page.getByRole('heading', { level: 2, name: 'Mormo' })).toBeVisible({ timeout: 30_000 })
      await expect(page.getByRole('note')).toContainText('notificação obrigatória')
      await expect(page.getByRole('note')).toContainText('24 horas')

      const width = await page.evaluate(() => document.documentElement.scrollWidth)
      expect(width).toBeLessThanOrEqual(viewport.width)
    })
  })
}
