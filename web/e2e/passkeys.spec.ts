import { expect, test, type Browser, type APIRequestContext } from '@playwright/test'
import { apiPost, signedInUser } from './support/users'

// WebAuthn refuses an IP address as the relying party: the server serves
// passkeys for "localhost", so this spec browses http://localhost:<port>.
function localhostBase(): string {
  return process.env.E2E_BASE_URL!.replace('127.0.0.1', 'localhost')
}

async function addPasskeyAndSignInWithIt(browser: Browser, request: APIRequestContext, viewport: { width: number; height: number }) {
  const context = await browser.newContext({ baseURL: localhostBase(), viewport, locale: 'pt-BR' })
  const page = await context.newPage()
  // Chromium's virtual authenticator: a platform passkey with user verification.
  const cdp = await context.newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  const user = await signedInUser(context, request)

  await page.goto('/profile')
  const security = page.getByRole('region', { name: 'Segurança' })
  await expect(security.getByText('Nenhuma passkey cadastrada.')).toBeVisible({ timeout: 30_000 })
  await security.getByLabel('Nome da passkey').fill('Navegador de teste')
  await security.getByRole('button', { name: 'Adicionar passkey' }).click()
  const list = security.getByRole('list', { name: 'Suas passkeys' })
  await expect(list.getByText('Navegador de teste')).toBeVisible()
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
  expect(credentials).toHaveLength(1)
  expect(credentials[0]!.isResidentCredential).toBe(true)
  // Nothing overflows the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)

  // Signed out, then back in with the passkey alone (no e-mail, no password).
  expect((await apiPost(context, '/api/auth/logout', {})).ok()).toBe(true)
  await page.goto('/login')
  await page.getByRole('button', { name: 'Entrar com passkey' }).click()
  await expect(page).not.toHaveURL(/\/login/)
  const session = await (await context.request.get('/api/auth/session')).json()
  expect(session.user.email).toBe(user.email)
  const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId })
  expect(after.credentials[0]!.signCount).toBeGreaterThan(credentials[0]!.signCount)

  // Renamed, then removed: it no longer signs in.
  await page.goto('/profile')
  await security.getByRole('button', { name: 'Renomear Navegador de teste' }).click()
  await security.getByLabel('Novo nome').fill('Notebook')
  await security.getByRole('button', { name: 'Salvar' }).click()
  await expect(list.getByText('Notebook')).toBeVisible()
  page.once('dialog', (d) => void d.accept())
  await security.getByRole('button', { name: 'Remover Notebook' }).click()
  await expect(security.getByText('Nenhuma passkey cadastrada.')).toBeVisible()
  expect((await apiPost(context, '/api/auth/logout', {})).ok()).toBe(true)
  await page.goto('/login')
  await page.getByRole('button', { name: 'Entrar com passkey' }).click()
  await expect(page.getByRole('alert')).toHaveText('Esta passkey não está cadastrada no VetClube.')
  await context.close()
}

test('a member adds a passkey and signs in with it (390 px)', async ({ browser, request }) => {
  await addPasskeyAndSignInWithIt(browser, request, { width: 390, height: 844 })
})

test('a member adds a passkey and signs in with it (1280 px)', async ({ browser, request }) => {
  await addPasskeyAndSignInWithIt(browser, request, { width: 1280, height: 800 })
})
