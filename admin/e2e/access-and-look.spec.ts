import { expect, test, type BrowserContext, type Page } from '@playwright/test'
import { finishTwoStep } from './support/twoStep'
import { expectNoSeriousA11yViolations } from './support/a11y'

// Dev seed (core/app/seed.go).
const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' }
const DEMO = { email: 'demo@vetclube.dev', password: 'Consulta#2026' }
const REVISOR_EMAIL = 'revisor@vetclube.dev'

/** Signs in as the PWA does (the same cookies), without the backoffice. */
async function signInToApp(context: BrowserContext, account: { email: string; password: string }) {
  await context.request.get('/api/auth/session')
  const csrf = (await context.cookies()).find((c) => c.name === 'vc_csrf')?.value ?? ''
  const res = await context.request.post('/api/auth/login', { data: account, headers: { 'X-CSRF-Token': csrf } })
  expect(res.ok(), await res.text()).toBe(true)
}

async function signInToBackoffice(page: Page, account: { email: string; password: string }) {
  await page.goto('/backoffice/')
  await page.getByRole('textbox', { name: 'Email' }).fill(account.email)
  await page.getByRole('textbox', { name: 'Senha' }).fill(account.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await finishTwoStep(page, account.email)
  await expect(page.getByRole('heading', { level: 1, name: 'Painel do VetClube' })).toBeVisible()
}

test('an app user without a backoffice role is refused and stays signed in to the app', async ({ page, context }) => {
  await signInToApp(context, DEMO)
  const logouts: string[] = []
  page.on('request', (req) => {
    if (req.url().endsWith('/api/auth/logout')) logouts.push(req.method())
  })

  await page.goto('/backoffice/')
  await expect(page.getByRole('heading', { level: 1, name: 'Acesso restrito a editores e administradores.' })).toBeVisible()
  await expect(page.getByText(`Você entrou no VetClube como ${DEMO.email}.`)).toBeVisible()
  await expect(page.getByRole('link', { name: 'Voltar para o VetClube' })).toHaveAttribute('href', '/')
  await expectNoSeriousA11yViolations(page, 'access refused')
  await page.reload()
  await expect(page.getByRole('heading', { level: 1, name: 'Acesso restrito a editores e administradores.' })).toBeVisible()
  expect(logouts).toEqual([])
  expect((await page.request.get('/api/auth/session')).status()).toBe(200)

  // Leaving is their choice, and then it is a real sign-out.
  await page.getByRole('button', { name: 'Sair e entrar com outra conta' }).click()
  await expect(page.getByRole('textbox', { name: 'Email' })).toBeVisible()
  expect(logouts).toEqual(['POST'])
  expect((await page.request.get('/api/auth/session')).status()).toBe(401)
})

test('an anonymous visit reaches the login page with one redirect, not a loop', async ({ page }) => {
  // A logout that resolved with no delay once made react-admin push #/login
  // thousands of times, freezing the page for seconds before the form showed.
  await page.addInitScript(() => {
    const counted = window as unknown as { pushes: number }
    counted.pushes = 0
    const push = history.pushState.bind(history)
    history.pushState = (...args: Parameters<History['pushState']>) => {
      counted.pushes++
      push(...args)
    }
  })
  await page.goto('/backoffice/#/users')
  await expect(page.getByRole('textbox', { name: 'Email' })).toBeVisible()
  await expect(page).toHaveURL(/#\/login$/)
  expect(await page.evaluate(() => (window as unknown as { pushes: number }).pushes)).toBeLessThanOrEqual(2)
  // The login page: VetClube's name as its heading, a main landmark, and the
  // way to the password reset; axe finds nothing serious.
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'VetClube Backoffice' })).toBeVisible()
  await expect(page.getByRole('main').locator('svg').first()).toBeVisible()
  await expectNoSeriousA11yViolations(page, 'login')
  await page.getByRole('link', { name: 'Esqueci minha senha' }).click()
  await expect(page).toHaveURL(/\/forgot-password$/)
})

test('granting or revoking super administrator asks first, names the consequence and lands in the role history', async ({ page }) => {
  await signInToBackoffice(page, SUPER_ADMIN)
  const listed = await (await page.request.get(`/api/admin/users?filter=${encodeURIComponent(JSON.stringify({ q: REVISOR_EMAIL }))}`)).json()
  const revisorId: string = listed[0].id
  const rolesOf = async () => ((await (await page.request.get(`/api/admin/users/${revisorId}`)).json()) as { roles: string[] }).roles
  await page.goto(`/backoffice/#/users/${revisorId}/show`)

  const grant = page.getByRole('button', { name: 'Conceder Super administrador' })
  await grant.click()
  const dialog = page.getByRole('dialog')
  await expect(dialog.getByRole('heading', { name: /^Conceder Super administrador a .+\?$/ })).toBeVisible()
  await expect(dialog).toContainText('acesso total ao backoffice')
  await dialog.getByRole('button', { name: 'Cancelar' }).click()
  await expect(dialog).toHaveCount(0)
  expect(await rolesOf()).not.toContain('super_admin')

  await grant.click()
  await page.getByRole('dialog').getByRole('button', { name: 'Conceder' }).click()
  await expect(page.getByText('Papel Super administrador concedido.')).toBeVisible()
  expect(await rolesOf()).toContain('super_admin')
  const history = page.getByRole('list', { name: 'Histórico de papéis' })
  await expect(history.getByRole('listitem').first()).toContainText('Super administrador concedido')
  await expect(history.getByRole('listitem').first()).toContainText(`por ${SUPER_ADMIN.email}`)

  await page.getByRole('button', { name: 'Remover Super administrador' }).click()
  await expect(page.getByRole('dialog')).toContainText('deixará de gerenciar usuários e papéis')
  await page.getByRole('dialog').getByRole('button', { name: 'Remover' }).click()
  await expect(page.getByText('Papel Super administrador removido.')).toBeVisible()
  await expect(history.getByRole('listitem').first()).toContainText('Super administrador removido')
  expect(await rolesOf()).not.toContain('super_admin')
  // The seed's grant of revisor is in the history too, from the command line.
  await expect(history.getByRole('listitem').last()).toContainText('Revisor concedido')
  await expect(history.getByRole('listitem').last()).toContainText('pela linha de comando')
})

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the backoffice looks like VetClube and axe finds nothing serious (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme })
    await signInToBackoffice(page, SUPER_ADMIN)
    const appBar = page.locator('header').first()
    await expect(appBar.locator('svg').first()).toBeVisible()
    if (colorScheme === 'light') await expect(appBar).toHaveCSS('background-color', 'rgb(15, 118, 110)')
    else await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(11, 17, 32)')
    await expect(page.getByRole('link', { name: 'Página de entrada' })).toHaveAttribute('href', '/landing')

    const pages: [string, string][] = [
      ['#/', 'Painel do VetClube'],
      ['#/users', 'Usuários'],
      ['#/content/noticias', 'Notícias'],
      ['#/agenda', 'Agenda'],
      ['#/audit', 'Auditoria'],
    ]
    for (const [hash, title] of pages) {
      await page.goto(`/backoffice/${hash}`)
      await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible()
      await page.waitForLoadState('networkidle')
      await expectNoSeriousA11yViolations(page, `${hash} (${colorScheme})`)
    }
    const listed = await (await page.request.get('/api/admin/users?range=[0,0]')).json()
    await page.goto(`/backoffice/#/users/${listed[0].id}/show`)
    await expect(page.getByRole('heading', { name: 'Histórico de papéis' })).toBeVisible()
    await expectNoSeriousA11yViolations(page, `user show (${colorScheme})`)
  })
}

test('lists fit a phone: one line per row, no sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signInToBackoffice(page, SUPER_ADMIN)
  for (const [hash, text] of [
    ['#/users', DEMO.email],
    ['#/content/noticias', 'Campanha de vacinação antirrábica'],
  ]) {
    await page.goto(`/backoffice/${hash}`)
    await expect(page.getByText(text).first()).toBeVisible()
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow, `${hash} is wider than the phone`).toBeLessThanOrEqual(0)
  }
  // The users list shows trial and premium next to the granted roles.
  await page.goto('/backoffice/#/users')
  await expect(page.getByRole('link', { name: new RegExp(REVISOR_EMAIL) }).getByText('Revisor')).toBeVisible()
  await expect(page.getByRole('link', { name: new RegExp(DEMO.email) }).getByText('Período de teste')).toBeVisible()
})
