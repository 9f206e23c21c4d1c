import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { totp } from '../../e2e-support/totp'
import { signedInUser } from './support/users'

/** A code of secret from a 30-second step the server has not seen yet (it refuses a replayed step). */
async function freshCode(secret: string, usedStep: number): Promise<{ code: string; step: number }> {
  for (;;) {
    const step = Math.floor(Date.now() / 30_000)
    if (step > usedStep) return { code: totp(secret), step }
    await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 100))
  }
}

// Codes are rate limited per account like passwords (3 per 10 s): the steps
// below that are not about the limit leave its window behind first.
const pastRateWindow = () => new Promise((r) => setTimeout(r, 10_500))

async function expectNoSeriousA11yViolations(page: Page) {
  await page.mouse.move(0, 0)
  const results = await new AxeBuilder({ page }).include('main').analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(', ')}`)).toEqual([])
}

test('a member turns two-step verification on in Segurança and signs in with a generated code', async ({ page, context, request, browser }) => {
  test.setTimeout(150_000)
  const user = await signedInUser(context, request)

  await page.goto('/profile')
  const security = page.getByRole('region', { name: 'Segurança' })
  await security.getByRole('button', { name: 'Ativar verificação em duas etapas' }).click()
  await expect(security.getByRole('img', { name: 'QR code para o aplicativo autenticador' })).toBeVisible()
  const secret = (await security.getByTestId('totp-secret').textContent())!.trim()
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/)
  await expectNoSeriousA11yViolations(page)

  // A wrong code is refused; the authenticator's code turns it on.
  await security.getByLabel('Código do aplicativo').fill('000000')
  await security.getByRole('button', { name: 'Confirmar e ativar' }).click()
  await expect(security.getByRole('alert')).toHaveText('Código de verificação inválido.')
  const first = await freshCode(secret, 0)
  await security.getByLabel('Código do aplicativo').fill(first.code)
  await security.getByRole('button', { name: 'Confirmar e ativar' }).click()
  const codes = security.getByRole('list', { name: 'Códigos de recuperação' }).getByRole('listitem')
  await expect(codes).toHaveCount(10)
  const recovery = (await codes.first().textContent())!.trim()
  await security.getByRole('button', { name: 'Já guardei meus códigos' }).click()
  await expect(security.getByText('Restam 10 códigos de recuperação.')).toBeVisible()

  // Another browser: the password alone no longer opens a session.
  const other = await browser.newContext()
  const login = await other.newPage()
  await login.goto('/login')
  await login.getByLabel('Email').fill(user.email)
  await login.getByLabel('Senha').fill(user.password)
  await login.getByRole('button', { name: 'Entrar', exact: true }).click()
  const code = login.getByLabel('Código de verificação')
  await expect(code).toBeVisible()
  expect((await other.request.get('/api/auth/session')).status()).toBe(401)
  await expectNoSeriousA11yViolations(login)

  await code.fill('123456')
  await login.getByRole('button', { name: 'Verificar' }).click()
  await expect(login.getByText('Código de verificação inválido.')).toBeVisible()

  await pastRateWindow()
  const second = await freshCode(secret, first.step)
  await login.getByLabel('Código de verificação').fill(second.code)
  await login.getByLabel('Lembrar este dispositivo por 30 dias').check()
  await login.getByRole('button', { name: 'Verificar' }).click()
  await expect(login).not.toHaveURL(/\/login/)
  expect((await other.request.get('/api/auth/session')).status()).toBe(200)
  expect((await other.cookies()).some((c) => c.name.endsWith('vc_trusted_device'))).toBe(true)

  // The same code again (a replay) is refused, from a third browser; a recovery code works once.
  await pastRateWindow()
  const third = await browser.newContext()
  const again = await third.newPage()
  await again.goto('/login')
  await again.getByLabel('Email').fill(user.email)
  await again.getByLabel('Senha').fill(user.password)
  await again.getByRole('button', { name: 'Entrar', exact: true }).click()
  await again.getByLabel('Código de verificação').fill(second.code)
  await again.getByRole('button', { name: 'Verificar' }).click()
  await expect(again.getByText('Código de verificação inválido.')).toBeVisible()
  await pastRateWindow()
  await again.getByLabel('Código de verificação').fill(recovery)
  await again.getByRole('button', { name: 'Verificar' }).click()
  await expect(again).not.toHaveURL(/\/login/)

  // The remembered browser signs in again with the password alone.
  await pastRateWindow()
  await other.clearCookies({ name: 'vc_access' })
  const res = await other.request.post('/api/auth/login', {
    data: { email: user.email, password: user.password },
    headers: { 'X-CSRF-Token': (await other.cookies()).find((c) => c.name === 'vc_csrf')?.value ?? '' },
  })
  expect(await res.json()).toMatchObject({ user: { email: user.email } })
  await other.close()
  await third.close()
})
