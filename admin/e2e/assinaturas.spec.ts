import { randomUUID } from 'node:crypto'
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { finishTwoStep } from './support/twoStep'

// Dev seed (core/app/seed.go).
const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' }

async function post(context: BrowserContext, path: string, data: unknown) {
  if (!(await context.cookies()).some((c) => c.name === 'vc_csrf')) await context.request.get('/api/auth/session')
  const csrf = (await context.cookies()).find((c) => c.name === 'vc_csrf')?.value ?? ''
  return context.request.post(path, { data, headers: { 'X-CSRF-Token': csrf } })
}

async function confirmationToken(request: APIRequestContext, email: string): Promise<string> {
  for (let i = 0; i < 60; i++) {
    const { messages } = (await (await request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as { messages: { links: string[] }[] }
    const link = messages.flatMap((m) => m.links).find((l) => new URL(l).pathname === '/confirmar-email')
    if (link) return new URL(link).searchParams.get('token')!
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`no confirmation mail to ${email}`)
}

/** A new member who subscribes yearly through the local fake Stripe's hosted checkout. */
async function subscriber(context: BrowserContext): Promise<string> {
  const email = `assina-${randomUUID().slice(0, 8)}@exemplo.com.br`
  const password = 'Vet!Clube2026seguro'
  expect((await post(context, '/api/auth/signup', { first_name: 'Sofia', last_name: 'Assinante', email, password })).status()).toBe(201)
  expect((await post(context, '/api/auth/confirm', { token: await confirmationToken(context.request, email) })).ok()).toBe(true)
  expect((await post(context, '/api/auth/login', { email, password })).ok()).toBe(true)
  const checkout = await post(context, '/api/billing/checkout', { billing_cycle: 'yearly' })
  expect(checkout.ok(), await checkout.text()).toBe(true)
  const { url } = (await checkout.json()) as { url: string }
  // The fake's hosted page pays on POST (its form), then sends the signed events.
  const paid = await context.request.post(url, { maxRedirects: 0 })
  expect(paid.status()).toBe(303)
  await expect.poll(async () => (await (await context.request.get('/api/subscription')).json()).is_premium, { timeout: 15_000 }).toBe(true)
  await post(context, '/api/auth/logout', {})
  return email
}

async function signInToBackoffice(page: Page) {
  await page.goto('/backoffice/')
  await page.getByRole('textbox', { name: 'Email' }).fill(SUPER_ADMIN.email)
  await page.getByRole('textbox', { name: 'Senha' }).fill(SUPER_ADMIN.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await finishTwoStep(page, SUPER_ADMIN.email)
  await expect(page.getByRole('heading', { level: 1, name: 'Painel do VetClube' })).toBeVisible()
}

test('Assinaturas and Eventos do Stripe: the subscriber, MRR, the timeline, and Reprocessar', async ({ browser, baseURL }) => {
  test.setTimeout(120_000)
  const member = await browser.newContext({ baseURL })
  const email = await subscriber(member)
  await member.close()

  const context = await browser.newContext({ baseURL })
  const page = await context.newPage()
  await signInToBackoffice(page)

  await page.getByRole('menuitem', { name: 'Assinaturas' }).click()
  await expect(page.getByRole('heading', { name: 'Receita recorrente e churn (12 meses)' })).toBeVisible()
  await expect(page.getByRole('table', { name: 'MRR e churn dos últimos 12 meses' }).getByRole('row')).toHaveCount(13)
  const row = page.getByRole('row').filter({ hasText: email })
  await expect(row).toContainText('Ativa')
  await expect(row).toContainText('Anual')
  await expectNoSeriousA11yViolations(page, 'Assinaturas')

  // By status: a past_due filter leaves the active member out.
  await page.getByRole('combobox', { name: 'Situação' }).click()
  await page.getByRole('option', { name: 'Pagamento pendente' }).click()
  await expect(page.getByRole('row').filter({ hasText: email })).toHaveCount(0)
  await page.getByRole('combobox', { name: 'Situação' }).click()
  await page.getByRole('option', { name: 'Ativa' }).click()
  await row.click()
  const timeline = page.getByRole('list', { name: 'Linha do tempo da assinatura' })
  await expect(timeline).toContainText('invoice.paid')

  await page.getByRole('menuitem', { name: 'Eventos do Stripe' }).click()
  const paid = page.getByRole('row').filter({ hasText: 'invoice.paid' }).first()
  await expect(paid).toContainText('Aplicado')
  await expectNoSeriousA11yViolations(page, 'Eventos do Stripe')
  await paid.getByRole('button', { name: /^Reprocessar/ }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Reprocessar' }).click()
  await expect(page.getByText(/Evento reprocessado/)).toBeVisible()
  await context.close()
})
