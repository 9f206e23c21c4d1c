import { expect, test, type APIRequestContext, type Browser } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { linkFrom, waitForMail } from './support/mailbox'
import { startServer, type RunningServer } from './support/server'
import { apiPost, newTestUser, signInByApi, signedInUser } from './support/users'

// "Indique e ganhe" end to end, against a server whose referral days last
// two seconds (REFERRAL_DAY=2s): the 14-day hold is 28 s of the real
// workflow on the embedded Temporal, with the fake Stripe's signed events.
const REFERRAL_DAY = '2s'

let server: RunningServer | undefined

test.describe('indique e ganhe', () => {
  test.use({ viewport: { width: 1280, height: 900 } })

  test.beforeAll(async () => {
    test.setTimeout(120_000)
    server = await startServer({ REFERRAL_DAY })
  })
  test.afterAll(async () => {
    await server?.stop()
  })

  async function balance(request: APIRequestContext): Promise<number> {
    const res = await request.get(`${server!.baseURL}/api/points/balance`)
    expect(res.ok()).toBe(true)
    return (await res.json()).total_points as number
  }

  async function newContext(browser: Browser) {
    return browser.newContext({ baseURL: server!.baseURL, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' })
  }

  test('a link shared, a sign-up, a paid invoice, the hold, both rewarded', async ({ browser }) => {
    test.setTimeout(240_000)
    // Member A copies the link.
    const a = await newContext(browser)
    await a.grantPermissions(['clipboard-read', 'clipboard-write'])
    const pageA = await a.newPage()
    await signedInUser(a, a.request, { firstName: 'Ana', lastName: 'Souza' })
    await pageA.goto('/indique-e-ganhe')
    await expect(pageA.getByRole('heading', { name: 'Indique e Ganhe' })).toBeVisible()
    const link = await pageA.getByRole('textbox', { name: 'Seu link de indicação' }).inputValue()
    expect(link).toMatch(new RegExp(`^${server!.baseURL}/i/[A-Z2-9]{8}$`))
    await pageA.getByRole('button', { name: /Copiar link/ }).click()
    await expect(pageA.getByText('Link copiado!')).toBeVisible()
    expect(await pageA.evaluate(() => navigator.clipboard.readText())).toBe(link)
    await expect(pageA.getByRole('img', { name: 'QR code do seu link de indicação' })).toBeVisible()
    // The QR is the server's SVG of the same link.
    const qr = await a.request.get('/api/referrals/me/qr.svg')
    expect(qr.headers()['content-type']).toBe('image/svg+xml')
    await expectNoSeriousA11yViolations(pageA, 'indique-e-ganhe')

    // A new browser opens it (twice: one click counted) and signs up.
    const b = await newContext(browser)
    const pageB = await b.newPage()
    await pageB.goto(link)
    await expect(pageB).toHaveURL(/\/register$/)
    await pageB.goto(link)
    await expect(pageB.getByRole('heading', { name: 'Criar conta' })).toBeVisible()
    const user = newTestUser({ firstName: 'Bruna', lastName: 'Lima' })
    await pageB.getByLabel('Nome', { exact: true }).fill(user.firstName)
    await pageB.getByLabel('Sobrenome').fill(user.lastName)
    await pageB.getByLabel('Email').fill(user.email)
    await pageB.getByLabel('Senha', { exact: true }).fill(user.password)
    await pageB.getByRole('button', { name: 'Criar conta' }).click()
    await expect(pageB.getByRole('status').getByText('Conta criada com sucesso! Indicação processada.').first()).toBeVisible()

    // B confirms, signs in and subscribes (the fake Stripe's checkout).
    const mail = await waitForMail(b.request, user.email, { subject: /confirme/i })
    await pageB.goto(linkFrom(mail, '/confirmar-email'))
    await expect(pageB.getByText('Email confirmado com sucesso! Faça login para continuar.')).toBeVisible()
    await signInByApi(b, user)
    const checkout = await apiPost(b, '/api/billing/checkout', { billing_cycle: 'monthly' })
    expect(checkout.status(), await checkout.text()).toBe(200)
    await pageB.goto((await checkout.json()).url)
    await pageB.getByRole('button', { name: 'Pagar' }).click()

    // A's page: the referral on hold, with the date the reward arrives.
    const row = pageA.getByTestId('referral-row').filter({ hasText: 'Bruna L.' })
    await expect(async () => {
      await pageA.reload()
      await expect(row).toContainText('Em carência', { timeout: 1000 })
    }).toPass({ timeout: 30_000 })
    await expect(row).toContainText(/Recompensa em \d{2}\/\d{2}\/\d{4}/)
    await expectNoSeriousA11yViolations(pageA, 'indique-e-ganhe with a referral')
    const totals = pageA.getByLabel('Seus números')
    await expect(totals.getByText('Cliques').locator('xpath=following-sibling::dd')).toHaveText('1')
    await expect(totals.getByText('Cadastros').locator('xpath=following-sibling::dd')).toHaveText('1')
    await expect(totals.getByText('Assinaturas').locator('xpath=following-sibling::dd')).toHaveText('1')
    expect(await balance(a.request)).toBe(0)
    expect(await balance(b.request)).toBe(0)

    // After the hold (14 referral days = 28 s here) both balances grow by the configured rewards.
    await expect.poll(() => balance(a.request), { timeout: 90_000, intervals: [2000] }).toBe(500)
    expect(await balance(b.request)).toBe(200)
    await pageA.reload()
    await expect(row).toContainText('Recompensa creditada')
    await expect(totals.getByText('VetCoins ganhos').locator('xpath=following-sibling::dd')).toHaveText('500')
    await a.close()
    await b.close()
  })
})
