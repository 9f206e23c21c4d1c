import { randomUUID } from 'node:crypto'
import { expect, test, type APIRequestContext, type BrowserContext } from '@playwright/test'
import { totp } from '../../e2e-support/totp'
import { devTOTP } from './support/twoStep'

const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' } // dev seed
const PASSWORD = 'Vet!Clube2026seguro'

async function post(context: BrowserContext, path: string, data: unknown) {
  if (!(await context.cookies()).some((c) => c.name === 'vc_csrf')) await context.request.get('/api/auth/session')
  const csrf = (await context.cookies()).find((c) => c.name === 'vc_csrf')?.value ?? ''
  return context.request.post(path, { data, headers: { 'X-CSRF-Token': csrf } })
}

async function confirmedAccount(context: BrowserContext, request: APIRequestContext, email: string): Promise<string> {
  const signup = await post(context, '/api/auth/signup', { first_name: 'Rita', last_name: 'Revisora', email, password: PASSWORD })
  expect(signup.status(), await signup.text()).toBe(201)
  let token = ''
  await expect(async () => {
    const box = await (await request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()
    const link = (box.messages as { links?: string[]; text: string }[])
      .flatMap((m) => m.links ?? m.text.match(/https?:\/\/\S+/g) ?? [])
      .find((l) => l.includes('/confirmar-email'))
    token = new URL(link!).searchParams.get('token')!
  }).toPass({ timeout: 15_000 })
  expect((await post(context, '/api/auth/confirm', { token })).ok()).toBe(true)
  const login = await post(context, '/api/auth/login', { email, password: PASSWORD })
  expect(login.ok()).toBe(true)
  return (await login.json()).user.id as string
}

test('a new revisor is walked through two-step enrolment before the backoffice opens', async ({ browser, page, request }) => {
  test.setTimeout(120_000)
  const email = `e2e-revisora-${randomUUID().slice(0, 8)}@exemplo.com.br`
  const setup = await browser.newContext()
  const userId = await confirmedAccount(setup, request, email)

  // The super admin (two-step on, fixed dev secret) grants revisor.
  const admin = await browser.newContext()
  const signIn = await post(admin, '/api/auth/login', { ...SUPER_ADMIN, code: await devTOTP(SUPER_ADMIN.email) })
  expect(signIn.ok(), await signIn.text()).toBe(true)
  const grant = await post(admin, `/api/admin/users/${userId}/roles/revisor`, {})
  expect(grant.ok(), await grant.text()).toBe(true)

  // Without a second step the role is held back: the backoffice API refuses.
  const held = await setup.request.get('/api/auth/session')
  expect((await held.json()).user).toMatchObject({ two_step_pending: true })
  expect((await setup.request.get('/api/admin/audit')).status()).toBe(403)

  await page.goto('/backoffice/')
  await page.getByRole('textbox', { name: 'Email' }).fill(email)
  await page.getByRole('textbox', { name: 'Senha' }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await expect(page.getByRole('heading', { name: 'Ative a verificação em duas etapas' })).toBeVisible()
  await page.getByRole('button', { name: 'Começar' }).click()
  await expect(page.getByRole('img', { name: 'QR code para o aplicativo autenticador' })).toBeVisible()
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim()
  await page.getByRole('textbox', { name: 'Código do aplicativo' }).fill(totp(secret))
  await page.getByRole('button', { name: 'Confirmar e ativar' }).click()
  await expect(page.getByRole('list', { name: 'Códigos de recuperação' }).getByRole('listitem')).toHaveCount(10)
  await page.getByRole('button', { name: 'Abrir o backoffice' }).click()
  await expect(page.getByRole('heading', { level: 1, name: 'Painel do VetClube' })).toBeVisible()
  expect((await page.request.get('/api/admin/audit')).status()).toBe(200)
  await setup.close()
  await admin.close()
})
