import AxeBuilder from '@axe-core/playwright'
import { expect, test, type BrowserContext, type Page } from '@playwright/test'
import { signedInUser } from './support/users'

/** Serious or critical axe violations of this page's own content (<main> and an open dialog); the shell has its own tests. */
async function expectNoSeriousA11yViolations(page: Page, label: string) {
  let axe = new AxeBuilder({ page }).include('main')
  if (await page.locator('dialog[open]').count()) axe = axe.include('dialog[open]')
  const results = await axe.analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${label}: ${v.id}: ${v.nodes.map((n) => n.html).join(', ')}`)).toEqual([])
}

async function userId(context: BrowserContext): Promise<string> {
  const res = await context.request.get('/api/auth/session')
  expect(res.ok()).toBe(true)
  return ((await res.json()) as { user: { id: string } }).user.id
}

test.describe('connections', () => {
  test('two members connect from a public profile, accept on /connections (phone size), then remove', async ({ browser }) => {
    test.slow()
    const aliceContext = await browser.newContext()
    // The receiver answers on a phone.
    const brunoContext = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true })
    try {
      await signedInUser(aliceContext, aliceContext.request, { firstName: 'Alice', lastName: 'Cardoso' })
      await signedInUser(brunoContext, brunoContext.request, { firstName: 'Bruno', lastName: 'Tavares' })
      const brunoId = await userId(brunoContext)
      const alice = await aliceContext.newPage()
      const bruno = await brunoContext.newPage()

      // Alice asks from Bruno's public profile.
      await alice.goto(`/profile/${brunoId}`)
      await expect(alice.getByRole('heading', { level: 1, name: /Bruno Tavares/ })).toBeVisible()
      await alice.getByRole('button', { name: 'Conectar' }).click()
      await expect(alice.getByText('Solicitação de conexão enviada!')).toBeVisible()
      await expect(alice.getByText('Solicitação enviada')).toBeVisible()
      await expect(alice.getByRole('button', { name: 'Cancelar solicitação' })).toBeVisible()

      // Bruno accepts on /connections.
      await bruno.goto('/connections')
      await expect(bruno.getByRole('heading', { level: 1, name: 'Conexões' })).toBeVisible()
      const received = bruno.getByRole('list', { name: 'Solicitações recebidas' })
      await expect(received.getByRole('link', { name: 'Alice Cardoso' })).toBeVisible()
      await expectNoSeriousA11yViolations(bruno, '/connections with a request')
      await received.getByRole('button', { name: 'Aceitar Alice Cardoso' }).click()
      await expect(bruno.getByText('Conexão aceita!')).toBeVisible()
      const mine = bruno.getByRole('list', { name: 'Minhas conexões' })
      await expect(mine.getByRole('link', { name: 'Alice Cardoso' })).toBeVisible()
      await expect(bruno.getByText('Nenhuma solicitação pendente.')).toBeVisible()

      // Alice sees the connection on the profile, and the count moved.
      await alice.reload()
      await expect(alice.getByText('Conectado', { exact: true })).toBeVisible()
      await expect(alice.getByText('1 conexão', { exact: true })).toBeVisible()

      // Bruno searches (accents ignored) and removes after confirming.
      await bruno.getByLabel('Buscar conexões').fill('alíce')
      await expect(mine.getByRole('link', { name: 'Alice Cardoso' })).toBeVisible()
      await mine.getByRole('button', { name: 'Remover Alice Cardoso' }).click()
      const dialog = bruno.getByRole('dialog', { name: 'Remover conexão' })
      await expect(dialog).toContainText('Tem certeza de que deseja remover Alice Cardoso das suas conexões?')
      await expectNoSeriousA11yViolations(bruno, 'remove connection dialog')
      await dialog.getByRole('button', { name: 'Remover' }).click()
      await expect(bruno.getByText('Conexão removida')).toBeVisible()
      await bruno.getByLabel('Buscar conexões').fill('')
      await expect(bruno.getByText('Você ainda não tem conexões.')).toBeVisible()

      await alice.reload()
      await expect(alice.getByRole('button', { name: 'Conectar' })).toBeVisible()
      await expect(alice.getByText('0 conexões', { exact: true })).toBeVisible()
    } finally {
      await aliceContext.close()
      await brunoContext.close()
    }
  })
})
