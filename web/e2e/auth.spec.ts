import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { linkFrom, waitForMail } from './support/mailbox'
import { apiPost, createConfirmedUser, newTestUser, STRONG_PASSWORD } from './support/users'

/** Fails on any serious or critical axe violation of the page as it is now. */
async function expectNoSeriousA11yViolations(page: Page) {
  // Judge the resting state: a hovered primary button (opacity 90%) is 4.48:1.
  await page.mouse.move(0, 0)
  const results = await new AxeBuilder({ page }).analyze()
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  expect(serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')} ${n.html} ${n.failureSummary ?? ''}`).join(', ')})`)).toEqual([])
}

/**
 * Login rate-limit windows are fixed 10 s buckets (core/ratelimit truncates the
 * clock): waiting for the start of the next one gives a test a fresh count and
 * ~10 s before it ends. The server shares this machine's clock.
 */
async function waitForNextLoginWindow(page: Page) {
  const windowMs = 10_000
  const nextStart = (Math.floor(Date.now() / windowMs) + 1) * windowMs
  await page.waitForTimeout(nextStart - Date.now() + 100)
}

async function fillLogin(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Senha', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()
}

test.describe('auth screens', () => {
  test('sign-up with a weak then a strong password, confirm by mail, sign in, welcome badge, sign out', async ({ page, request }) => {
    // The whole account story with four accessibility scans: on a busy
    // machine it outgrows the default 60 s budget without being stuck.
    test.slow()
    const user = newTestUser({ firstName: 'Beatriz', lastName: 'Calado' })

    await page.goto('/register?ref=AMIGO2026')
    await expect(page.getByRole('heading', { name: 'Criar conta' })).toBeVisible()
    // Kept on the device with the moment it was seen (the first code wins for 30 days).
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('vetclube_referral_code') ?? '{}').code)).toBe('AMIGO2026')
    await expectNoSeriousA11yViolations(page)

    await page.getByLabel('Nome', { exact: true }).fill(user.firstName)
    await page.getByLabel('Sobrenome').fill(user.lastName)
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Senha', { exact: true }).fill('abc')
    // Live reasons: lower case met, the others not, as the user types.
    const rules = page.getByRole('list', { name: 'Requisitos da senha' })
    await expect(rules.locator('[data-rule="noLower"]')).toHaveAttribute('data-met', 'true')
    await expect(rules.locator('[data-rule="tooShort"]')).toHaveAttribute('data-met', 'false')
    await page.getByRole('button', { name: 'Criar conta' }).click()
    await expect(page.getByText(
      'Senha inválida: deve ter pelo menos 8 caracteres, deve conter pelo menos uma letra maiúscula, deve conter pelo menos um número, deve conter pelo menos um caractere especial',
    )).toBeVisible()
    await expectNoSeriousA11yViolations(page)

    await page.getByLabel('Senha', { exact: true }).fill(user.password)
    await expect(rules.locator('[data-met="false"]')).toHaveCount(0)
    await page.getByRole('button', { name: 'Criar conta' }).click()
    // AMIGO2026 is no member's code: the account is created and the spec's
    // "problem with the referral" message answers.
    await expect(page.getByRole('status').getByText('Conta criada, mas houve um problema ao processar a indicação.').first()).toBeVisible()
    // The referral code went with the sign-up and is no longer pending.
    expect(await page.evaluate(() => localStorage.getItem('vetclube_referral_code'))).toBeNull()

    const mail = await waitForMail(request, user.email, { subject: /confirme/i })
    await page.goto(linkFrom(mail, '/confirmar-email'))
    await expect(page.getByText('Email confirmado com sucesso! Faça login para continuar.')).toBeVisible()
    await expectNoSeriousA11yViolations(page)
    await page.getByRole('link', { name: 'Ir para o login' }).click()

    await expect(page).toHaveURL(/\/login$/)
    await fillLogin(page, user.email, user.password)
    await expect(page.getByText('Login realizado com sucesso!')).toBeVisible()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByText(`Bem-vindo(a), ${user.firstName} ${user.lastName}!`)).toBeVisible()

    await page.getByRole('button', { name: 'Sair' }).first().click()
    await expect(page.getByText('Logout realizado com sucesso!')).toBeVisible()
    await expect(page).toHaveURL(/\/login$/)
    // The session is really gone: a guarded page sends us back to sign in.
    await page.goto('/profile')
    await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile$/)
  })

  test('signing up again with a registered address answers alike and mails its owner', async ({ page, context, request }) => {
    const owner = await createConfirmedUser(context, request, newTestUser({ firstName: 'Irene', lastName: 'Souto' }))
    await page.goto('/register')
    await page.getByLabel('Nome', { exact: true }).fill('Outra')
    await page.getByLabel('Sobrenome').fill('Pessoa')
    await page.getByLabel('Email').fill(owner.email)
    await page.getByLabel('Senha', { exact: true }).fill('Outra!Senha2026')
    await page.getByRole('button', { name: 'Criar conta' }).click()
    // The same answer as a new sign-up: the page does not reveal the account.
    await expect(page.getByRole('status').getByText('Conta criada com sucesso! Verifique seu email para confirmação.').first()).toBeVisible()
    const mail = await waitForMail(request, owner.email, { subject: /^Tentativa de cadastro no VetClube com o seu email$/ })
    expect(mail.text).toContain('Alguém tentou criar uma conta no VetClube com este email')
    expect(new URL(linkFrom(mail, '/login')).pathname).toBe('/login')
    expect(new URL(linkFrom(mail, '/forgot-password')).pathname).toBe('/forgot-password')
  })

  test('the same confirmation link cannot be used twice', async ({ page, context, request }) => {
    const user = newTestUser()
    const signup = await apiPost(context, '/api/auth/signup', {
      first_name: user.firstName, last_name: user.lastName, email: user.email, password: user.password,
    })
    expect(signup.status()).toBe(201)
    const link = linkFrom(await waitForMail(request, user.email), '/confirmar-email')
    await page.goto(link)
    await expect(page.getByText('Email confirmado com sucesso! Faça login para continuar.')).toBeVisible()
    await page.goto(link)
    await expect(page.getByRole('alert').getByText('Link de confirmação inválido ou expirado.')).toBeVisible()
  })

  test('sign-in errors: wrong password and unconfirmed email, with a resend', async ({ page, context, request }) => {
    const unconfirmed = newTestUser()
    const signup = await apiPost(context, '/api/auth/signup', {
      first_name: unconfirmed.firstName, last_name: unconfirmed.lastName, email: unconfirmed.email, password: unconfirmed.password,
    })
    expect(signup.status()).toBe(201)

    await page.goto('/login')
    // The cursor starts in the email field.
    await expect(page.getByRole('textbox', { name: 'Email' })).toBeFocused()
    await expectNoSeriousA11yViolations(page)
    await fillLogin(page, unconfirmed.email, 'Errada#123')
    await expect(page.getByRole('alert').getByText('Email ou senha incorretos')).toBeVisible()

    await fillLogin(page, unconfirmed.email, unconfirmed.password)
    await expect(page.getByRole('alert').getByText('Email não confirmado. Verifique sua caixa de entrada.')).toBeVisible()
    await expectNoSeriousA11yViolations(page)
    await page.getByRole('button', { name: 'Reenviar email de confirmação' }).click()
    await expect(page.getByText(/enviamos um novo link de confirmação/)).toBeVisible()
    await expect.poll(async () => (await request.get('/api/dev/mailbox').then((r) => r.json())).messages
      .filter((m: { to: string | string[] }) => String(m.to).includes(unconfirmed.email)).length).toBe(2)
  })

  test('rate limit, then lockout after five failed sign-ins', async ({ page, context, request }) => {
    const user = await createConfirmedUser(context, request)
    await page.goto('/login')
    // Start right after a window boundary so the four quick attempts below share one window.
    await waitForNextLoginWindow(page)
    for (let i = 0; i < 3; i++) {
      await fillLogin(page, user.email, `Errada#${i}x`)
      await expect(page.getByRole('alert').getByText('Email ou senha incorretos')).toBeVisible()
    }
    await fillLogin(page, user.email, 'Errada#3x')
    await expect(page.getByRole('alert').getByText('Muitas tentativas de login. Aguarde um momento.')).toBeVisible()

    // Next window: failures four and five lock the account.
    await waitForNextLoginWindow(page)
    await fillLogin(page, user.email, 'Errada#4x')
    await expect(page.getByRole('alert').getByText('Email ou senha incorretos')).toBeVisible()
    await fillLogin(page, user.email, 'Errada#5x')
    const locked = /^Conta bloqueada devido a muitas tentativas de login falhadas\. Tente novamente após \d{2}:\d{2}\.$/
    await expect(page.getByRole('alert').getByText(locked)).toBeVisible()

    // Even the right password is refused while locked.
    await waitForNextLoginWindow(page)
    await fillLogin(page, user.email, user.password)
    await expect(page.getByRole('alert').getByText(locked)).toBeVisible()
    await expect(page).toHaveURL(/\/login$/)
    await expectNoSeriousA11yViolations(page)
  })

  test('sign-up rate limit: a third sign-up of one email within a minute is refused', async ({ page, context }) => {
    const user = newTestUser()
    // Fixed 60 s windows: keep all three attempts inside one.
    await page.waitForFunction(() => Date.now() % 60_000 < 45_000, undefined, { timeout: 20_000, polling: 250 })
    for (let i = 0; i < 2; i++) {
      const res = await apiPost(context, '/api/auth/signup', {
        first_name: user.firstName, last_name: user.lastName, email: user.email, password: user.password,
      })
      expect(res.status()).toBe(201)
    }
    await page.goto('/register')
    await page.getByLabel('Nome', { exact: true }).fill(user.firstName)
    await page.getByLabel('Sobrenome').fill(user.lastName)
    await page.getByLabel('Email').fill(user.email)
    await page.getByLabel('Senha', { exact: true }).fill(user.password)
    await page.getByRole('button', { name: 'Criar conta' }).click()
    await expect(page.locator('form').getByRole('alert').getByText('Muitas tentativas de cadastro. Aguarde um momento.')).toBeVisible()
    await expectNoSeriousA11yViolations(page)
  })

  test('a visitor sent to /login comes back to the page they wanted', async ({ page, context, request }) => {
    const user = await createConfirmedUser(context, request)
    await page.goto('/profile/edit')
    await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile%2Fedit$/)
    await fillLogin(page, user.email, user.password)
    await expect(page).toHaveURL(/\/profile\/edit$/)
    await expect(page.getByRole('heading', { name: 'Editar Perfil' })).toBeVisible()
  })

  test('forgot and reset password through the mailed link', async ({ page, context, request }) => {
    const user = await createConfirmedUser(context, request)
    await page.goto('/login')
    await page.getByRole('link', { name: 'Esqueceu sua senha?' }).click()
    await expect(page).toHaveURL(/\/forgot-password$/)
    await expectNoSeriousA11yViolations(page)
    await page.getByLabel('Email').fill(user.email)
    await page.getByRole('button', { name: 'Enviar link de recuperação' }).click()
    await expect(page.getByRole('status').getByText('Email de recuperação enviado!').first()).toBeVisible()

    const mail = await waitForMail(request, user.email, { subject: /senha/i })
    await page.goto(linkFrom(mail, '/redefinir-senha'))
    await expect(page.getByRole('heading', { name: 'Redefinir senha' })).toBeVisible()
    await expectNoSeriousA11yViolations(page)
    await page.getByLabel('Nova senha', { exact: true }).fill('fraca')
    await page.getByLabel('Confirmar nova senha').fill('fraca')
    await page.getByRole('button', { name: 'Redefinir senha' }).click()
    await expect(page.getByText(/^Senha inválida: deve ter pelo menos 8 caracteres/)).toBeVisible()

    const newPassword = `${STRONG_PASSWORD}Novo`
    await page.getByLabel('Nova senha', { exact: true }).fill(newPassword)
    await page.getByLabel('Confirmar nova senha').fill(newPassword)
    await page.getByRole('button', { name: 'Redefinir senha' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByText('Senha redefinida com sucesso! Faça login com sua nova senha.')).toBeVisible()

    await fillLogin(page, user.email, user.password)
    await expect(page.getByRole('alert').getByText('Email ou senha incorretos')).toBeVisible()
    await fillLogin(page, user.email, newPassword)
    await expect(page).toHaveURL(/\/$/)
  })

  test('a failed Google sign-in shows the mapped message', async ({ page }) => {
    await page.goto('/login?google_error=access_denied&message=' + encodeURIComponent('Acesso negado pelo usuário.'))
    await expect(page.getByRole('alert').getByText('Acesso negado pelo usuário.')).toBeVisible()
    await page.goto('/login?google_error=server_error&message=' + encodeURIComponent('Erro ao fazer login com Google: indisponível'))
    await expect(page.getByRole('alert').getByText('Erro ao fazer login com Google: indisponível')).toBeVisible()
    // A crafted message is not echoed: only the known messages are shown.
    await page.goto('/login?google_error=x&message=' + encodeURIComponent('Ligue para 0800 agora'))
    await expect(page.getByRole('alert').getByText('Erro ao fazer login com Google: x')).toBeVisible()
  })
})
