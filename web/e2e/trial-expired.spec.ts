import { expect, test, type Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { startServer, type RunningServer } from './support/server'
import { signedInUser } from './support/users'

// The trial-expired dialog (shown at most once per session) against a server whose trials
// last one second (TRIAL_DURATION=1s): the seeded demo account's trial has
// ended by the time it signs in, with no clock tricks in the browser or the database.
const DEMO = { email: 'demo@vetclube.dev', password: 'Consulta#2026' } // dev seed, core/app/seed.go

let server: RunningServer | undefined

test.describe('trial expired', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test.beforeAll(async () => {
    test.setTimeout(120_000)
    server = await startServer({ TRIAL_DURATION: '1s' })
  })
  test.afterAll(async () => {
    await server?.stop()
  })

  // Each test signs the demo account in once; sign-in allows 3 per 10 s per
  // email, so a fourth test here would need another account.
  async function signIn(page: Page) {
    await page.goto(`${server!.baseURL}/login`)
    await page.getByLabel('Email').fill(DEMO.email)
    await page.getByLabel('Senha', { exact: true }).fill(DEMO.password)
    await page.getByRole('button', { name: 'Entrar', exact: true }).click()
    await expect(page).toHaveURL(`${server!.baseURL}/`)
  }

  test('shows once per session, with the plans and the three buttons', async ({ page }) => {
    // Not signed in yet: the subscription view is not served to anyone.
    expect((await page.request.get(`${server!.baseURL}/api/subscription`)).status()).toBe(401)
    await signIn(page)

    const dialog = page.getByRole('dialog', { name: 'Trial Premium Expirado' })
    await expect(dialog).toBeVisible()
    await expect(dialog).toContainText('Seu período de teste terminou.')
    // The dialog's four Premium benefits, exactly these and in this order.
    await expect(dialog.getByRole('listitem')).toHaveText([
      'Pacientes ilimitados',
      'Todos os desafios profissionais',
      'Consultas à IA sem o limite do teste',
      'Todos os cursos e certificados',
    ])
    await expect(dialog.getByRole('button', { name: 'Depois' })).toBeVisible()
    await expect(dialog.getByRole('button', { name: 'Upgrade Agora' })).toBeVisible()
    await expectNoSeriousA11yViolations(page, 'trial-expired dialog')
    const view = await (await page.request.get(`${server!.baseURL}/api/subscription`)).json()
    expect(view).toMatchObject({ trial_expired: true, trial_active: false, is_premium: false, days_left: 0 })

    await dialog.getByRole('button', { name: 'Ver Planos' }).click()
    await expect(page).toHaveURL(`${server!.baseURL}/pricing`)
    await expect(dialog).toBeHidden()

    // Once per session: neither a reload nor another page brings it back.
    await page.reload()
    await page.goto(`${server!.baseURL}/`)
    await expect(page.getByRole('navigation', { name: 'Menu principal' })).toBeVisible()
    await expect(page.getByRole('dialog', { name: 'Trial Premium Expirado' })).toHaveCount(0)
  })

  test('Depois closes it and keeps the user where they were', async ({ page }) => {
    await signIn(page)
    const dialog = page.getByRole('dialog', { name: 'Trial Premium Expirado' })
    await expect(dialog).toBeVisible()
    await dialog.getByRole('button', { name: 'Depois' }).click()
    await expect(dialog).toBeHidden()
    await expect(page).toHaveURL(`${server!.baseURL}/`)
  })

  test('Upgrade Agora opens the monthly checkout in a new tab and closes the dialog', async ({ page, context }) => {
    await signIn(page)
    const dialog = page.getByRole('dialog', { name: 'Trial Premium Expirado' })
    await expect(dialog).toBeVisible()
    const [tab] = await Promise.all([context.waitForEvent('page'), dialog.getByRole('button', { name: 'Upgrade Agora' }).click()])
    // The tab opens blank inside the click, then goes to Stripe's checkout
    // (the local fake Stripe's hosted page) for the monthly plan.
    await expect.poll(() => new URL(tab.url()).pathname, { timeout: 15_000 }).toMatch(/^\/pay\//)
    await expect(tab.getByText(/por mês/)).toBeVisible()
    await expect(dialog).toBeHidden()
    await expect(page).toHaveURL(`${server!.baseURL}/`)
  })
  // Exclusive videos are for Premium and trial members: once the trial has
  // ended the list stays readable with every card marked Premium, and
  // opening one invites to the plans instead of playing it.
  test('an expired member sees exclusive videos marked Premium and is invited to the plans', async ({ browser, playwright }) => {
    const context = await browser.newContext({ baseURL: server!.baseURL })
    const request = await playwright.request.newContext({ baseURL: server!.baseURL })
    await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
    await signedInUser(context, request, { firstName: 'Otávio', lastName: 'Prado' })
    // The new member's one-second trial must be over before the list is read.
    await expect
      .poll(async () => (await (await context.request.get('/api/subscription')).json()).trial_expired, { timeout: 10_000 })
      .toBe(true)
    const page = await context.newPage()
    await page.goto('/conteudos-exclusivos')
    const expired = page.getByRole('dialog', { name: 'Trial Premium Expirado' })
    await expect(expired).toBeVisible()
    await expired.getByRole('button', { name: 'Depois' }).click()

    const cards = page.getByRole('list', { name: 'Vídeos' }).getByRole('article')
    await expect(cards.first()).toBeVisible()
    const count = await cards.count()
    await expect(cards.filter({ hasText: 'Premium' })).toHaveCount(count)

    await cards.first().getByRole('link').first().click()
    await expect(page).toHaveURL(/\/conteudos-exclusivos#[0-9a-f-]{36}$/)
    const invite = page.getByRole('region', { name: 'Conteúdo exclusivo Premium' })
    await expect(invite).toContainText('Este vídeo é exclusivo para assinantes Premium. Assine para continuar.')
    await expect(page.locator('video')).toHaveCount(0)
    await invite.getByRole('link', { name: 'Ver Planos' }).click()
    await expect(page).toHaveURL(`${server!.baseURL}/pricing`)
    await request.dispose()
    await context.close()
  })
})
