import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type PlaywrightWorkerArgs } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { linkFrom, waitForMail } from './support/mailbox'
import { freePort, startServer, type RunningServer } from './support/server'
import { newTestUser, signInByApi, signedInUser } from './support/users'

// Subscribing, end to end, against the real server and the in-repo fake
// Stripe (core/billing/stripefake: its hosted checkout, portal and signed
// webhooks). The fake listens on a port chosen here so the test can use its
// controls (POST /_fake/payment_failed, /_fake/webhooks, /_fake/invoice_paid).

// Dev seed (core/app/seed.go).
const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' }

let server: RunningServer | undefined
let fakeURL = ''

async function fake(request: APIRequestContext, what: string, data: unknown) {
  const res = await request.post(`${fakeURL}/_fake/${what}`, { data })
  expect(res.ok(), `${what}: ${res.status()} ${await res.text()}`).toBe(true)
}

test.describe('assinatura', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test.beforeAll(async () => {
    test.setTimeout(120_000)
    const port = await freePort()
    fakeURL = `http://127.0.0.1:${port}`
    server = await startServer({ STRIPE_FAKE_ADDR: `127.0.0.1:${port}` })
  })
  test.afterAll(async () => {
    await server?.stop()
  })

  async function member(browser: Browser, playwright: PlaywrightWorkerArgs['playwright']): Promise<{ context: BrowserContext; request: APIRequestContext; email: string }> {
    const context = await browser.newContext({ baseURL: server!.baseURL })
    const request = await playwright.request.newContext({ baseURL: server!.baseURL })
    // The push prompt would cover the page's corner: not this test's subject.
    await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
    const user = await signedInUser(context, request)
    return { context, request, email: user.email }
  }

  test('a trial member subscribes yearly, is premium on return, and a failed payment shows the banner', async ({ browser, playwright }) => {
    test.setTimeout(120_000)
    const { context, request, email } = await member(browser, playwright)
    const page = await context.newPage()
    const menu = page.getByRole('navigation', { name: 'Menu principal' })

    await page.goto('/pricing')
    await expect(page.getByRole('heading', { name: 'Premium grátis: 7 dias restantes' })).toBeVisible()
    await expect(menu.getByRole('link', { name: 'Planos' })).toBeVisible()
    await expect(page.getByText('Economize')).toBeVisible()
    await expectNoSeriousA11yViolations(page, '/pricing')
    await page.locator('label', { hasText: 'Anual' }).click()
    await expect(page.getByRole('radio', { name: /Anual/ })).toBeChecked()
    await expect(page.getByText('/ano')).toBeVisible()

    // Webhooks off: the success page must make the member premium on its own (sync on arrival).
    await fake(request, 'webhooks', { enabled: false })
    await page.getByRole('button', { name: 'Assinar' }).click()
    await expect(page).toHaveURL(new RegExp(`^${fakeURL}/pay/`))
    await expect(page.getByText(/por ano/)).toBeVisible()
    await page.getByRole('button', { name: 'Pagar' }).click()

    await expect(page).toHaveURL(/\/subscription-success\?session_id=/)
    await expect(page.getByText('Você agora é Premium Anual.')).toBeVisible()
    await fake(request, 'webhooks', { enabled: true })

    await page.getByRole('link', { name: 'Ir para o início' }).click()
    await expect(menu.getByRole('link', { name: 'Início' })).toBeVisible()
    await expect(menu.getByRole('link', { name: 'Planos' })).toHaveCount(0)

    await page.goto('/subscription')
    await expect(page.getByRole('heading', { name: 'Premium Anual' })).toBeVisible()
    await expect(page.getByText('ativa', { exact: true })).toBeVisible()
    await expect(page.getByRole('table')).toContainText('Paga')
    await expect(page.getByRole('button', { name: 'Gerenciar assinatura' })).toBeVisible()
    await expectNoSeriousA11yViolations(page, '/subscription')
    // On a phone the invoices scroll inside their box, never the page.
    await page.setViewportSize({ width: 390, height: 844 })
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBe(390)
    await page.setViewportSize({ width: 1280, height: 800 })

    // The renewal fails: Stripe's signed invoice.payment_failed reaches the
    // server, and the open page shows the banner through the live event.
    await fake(request, 'payment_failed', { email })
    const banner = page.getByRole('alert').filter({ hasText: 'Não conseguimos cobrar a sua assinatura' })
    await expect(banner).toBeVisible({ timeout: 15_000 })
    await expect(banner).toContainText(/acesso até \d+ de \w+ de \d{4}/)
    await expect(page.getByText(/pagamento pendente — acesso até/)).toBeVisible()
    await page.goto('/cursos')
    await expect(banner).toBeVisible()
    await banner.getByRole('button', { name: 'Atualizar pagamento' }).click()
    await expect(page).toHaveURL(new RegExp(`^${fakeURL}/portal/`))

    // Paid after all: the banner goes away.
    await fake(request, 'invoice_paid', { email })
    await page.goto(`${server!.baseURL}/payment-monitoring`)
    await expect(page.getByRole('table')).toContainText('Pagamento recusado')
    await expect(page.getByText('Não conseguimos cobrar a sua assinatura')).toHaveCount(0)
    await request.dispose()
    await context.close()
  })

  test('/register-premium: the confirmation link signs in and goes straight to the monthly checkout', async ({ browser, playwright }) => {
    const context = await browser.newContext({ baseURL: server!.baseURL })
    const request = await playwright.request.newContext({ baseURL: server!.baseURL })
    const page = await context.newPage()
    const user = newTestUser({ firstName: 'Caio', lastName: 'Reis' })
    await page.goto('/register-premium')
    await page.getByLabel('Nome', { exact: true }).fill(user.firstName)
    await page.getByLabel('Sobrenome').fill(user.lastName)
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Senha', { exact: true }).fill(user.password)
    await page.getByRole('button', { name: 'Criar conta e assinar' }).click()
    await expect(page.getByText('Ao confirmar, você entra e segue direto para o pagamento do Premium mensal.')).toBeVisible()

    const link = linkFrom(await waitForMail(request, user.email), '/confirmar-email')
    expect(new URL(link).searchParams.get('continuar')).toBe('assinatura')
    await page.goto(link)
    await expect(page).toHaveURL(new RegExp(`^${fakeURL}/pay/`))
    await expect(page.getByText(/por mês/)).toBeVisible()
    await request.dispose()
    await context.close()
  })

  test('/test-stripe: diagnostics for a super admin, Acesso restrito for a member', async ({ browser, playwright }) => {
    const { context, request } = await member(browser, playwright)
    const page = await context.newPage()
    await page.goto('/test-stripe')
    await expect(page.getByText('Acesso restrito')).toBeVisible()
    await context.close()
    await request.dispose()

    // The seeded super admin has two-step verification: the helper sends the code.
    const admin = await browser.newContext({ baseURL: server!.baseURL })
    await signInByApi(admin, SUPER_ADMIN)
    const adminPage = await admin.newPage()
    await adminPage.goto('/test-stripe')
    await expect(adminPage.getByText('Simulado (Stripe local)')).toBeVisible()
    await expect(adminPage.getByRole('listitem').filter({ hasText: 'API da Stripe acessível' })).toContainText('sim')
    await expect(adminPage.getByText(`${server!.baseURL}/api/billing/webhook`)).toBeVisible()
    // The first test's events, with their lag.
    await expect(adminPage.getByRole('row').filter({ hasText: 'invoice.payment_failed' }).first()).toContainText('aplicado')
    await expectNoSeriousA11yViolations(adminPage, '/test-stripe')
    await admin.close()
  })
})
