import { expect, test } from '@playwright/test'
import { linkFrom, waitForMail } from './support/mailbox'
import { apiPost, createConfirmedUser, newTestUser } from './support/users'

test('a member signs in with a code from the dev mailbox, and once more with the e-mail link', async ({ browser, context, request }) => {
  const user = await createConfirmedUser(context, request, newTestUser())

  const fresh = await browser.newContext()
  const page = await fresh.newPage()
  await page.goto('/login?redirect=%2Fcursos')
  await page.getByRole('link', { name: 'Entrar com código' }).click()
  await expect(page).toHaveURL(/\/login\/codigo/)
  await page.getByLabel('Email').fill(user.email)
  await page.getByRole('button', { name: 'Enviar código' }).click()
  await expect(page.getByText(/enviamos um código de acesso/)).toBeVisible()

  const mail = await waitForMail(request, user.email, { subject: /código de acesso/ })
  const code = /(\d{6})$/.exec(mail.subject)![1]!
  await page.getByLabel('Código de acesso').fill(code === '000000' ? '111111' : '000000')
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()
  await expect(page.getByText(/Código inválido ou expirado/)).toBeVisible()
  await page.getByLabel('Código de acesso').fill(code)
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()
  await expect(page).toHaveURL(/\/cursos/)
  expect((await fresh.request.get('/api/auth/session')).status()).toBe(200)

  // The code worked once: the link of that e-mail died with it.
  const spent = await (await browser.newContext()).newPage()
  await spent.goto(new URL(linkFrom(mail, '/login/codigo')).pathname + new URL(linkFrom(mail, '/login/codigo')).search)
  await expect(spent.getByText('Link de acesso inválido ou expirado. Solicite um novo código.')).toBeVisible()

  // A new code's one-click link signs in without typing anything.
  await page.waitForTimeout(10_500) // the per-address rate limit (3 per 10 s) is shared with passwords
  const other = await browser.newContext()
  const res = await apiPost(other, '/api/auth/code', { email: user.email })
  expect(res.ok(), await res.text()).toBe(true)
  const second = await waitForMail(request, user.email, { subject: new RegExp(`código de acesso ao VetClube: (?!${code}$)\\d{6}$`) })
  const link = new URL(linkFrom(second, '/login/codigo'))
  const linked = await other.newPage()
  await linked.goto(link.pathname + link.search)
  await expect(linked).not.toHaveURL(/\/login/)
  expect((await other.request.get('/api/auth/session')).status()).toBe(200)
})
