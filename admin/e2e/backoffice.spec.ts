import { expect, test, type Page } from '@playwright/test'
import { finishTwoStep } from './support/twoStep'

// Dev seed (core/app/seed.go).
const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' }
const DEMO = { email: 'demo@vetclube.dev', password: 'Consulta#2026' }
const RECRUITER = { email: 'recrutadora@vetclube.dev', password: 'Vagas#Recruta26' }

async function signIn(page: Page, account: { email: string; password: string }) {
  await page.goto('/backoffice/')
  await expect(page).toHaveURL(/#\/login/)
  await page.getByRole('textbox', { name: 'Email' }).fill(account.email)
  await page.getByRole('textbox', { name: 'Senha' }).fill(account.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await finishTwoStep(page, account.email)
}

function userRow(page: Page, email: string) {
  return page.getByRole('row').filter({ hasText: email })
}

test('an account without editor or super_admin is refused in pt-BR and signed out', async ({ page }) => {
  await signIn(page, DEMO)
  await expect(page.getByText('Acesso restrito a editores e administradores.')).toBeVisible()
  await expect(page).toHaveURL(/#\/login/)
  // The refused login's session was ended on the server, not just hidden.
  expect((await page.request.get('/api/auth/session')).status()).toBe(401)
  expect((await page.request.get('/api/admin/users')).status()).toBe(401)
})

test('a recruiter sees the applications card on the dashboard and nothing it may not read', async ({ page }) => {
  const refused: string[] = []
  page.on('response', (r) => {
    if (r.url().includes('/api/') && r.status() === 403) refused.push(r.url())
  })
  await signIn(page, RECRUITER)
  const jobs = page.getByRole('region', { name: 'Candidaturas das vagas' })
  await expect(jobs).toBeVisible()
  await expect(jobs.getByRole('link', { name: 'Abrir candidaturas' })).toBeVisible()
  await expect(page.getByTestId('overdue-card')).toHaveCount(0)
  await expect(page.getByText('Recrutador', { exact: false }).first()).toBeVisible()
  expect(refused).toEqual([])
  await jobs.getByRole('link', { name: 'Abrir candidaturas' }).click()
  await expect(page).toHaveURL(/#\/vagas-candidaturas$/)
})

test('a super admin sees the dashboard, lists and filters users, grants and revokes editor', async ({ page, browser }) => {
  await signIn(page, SUPER_ADMIN)
  await expect(page.getByRole('heading', { name: 'Painel do VetClube' })).toBeVisible()
  await expect(page.getByText('Bem-vindo ao backoffice, admin@vetclube.dev.')).toBeVisible()

  // The dashboard's count is the API's Content-Range total.
  const listed = await page.request.get('/api/admin/users?range=[0,0]')
  const total = listed.headers()['content-range'].split('/')[1]
  expect(Number(total)).toBeGreaterThanOrEqual(2)
  await expect(page.getByTestId('count-users')).toHaveText(total)
  await expect(page.getByTestId('count-super-admins')).toHaveText('1')
  await expect(page.getByRole('link', { name: 'Abrir o aplicativo' })).toHaveAttribute('href', '/')

  await page.getByRole('menuitem', { name: 'Usuários' }).click()
  await expect(page).toHaveURL(/#\/users/)
  await expect(userRow(page, DEMO.email)).toBeVisible()
  await expect(userRow(page, SUPER_ADMIN.email).getByText('Super administrador')).toBeVisible()
  await expect(page.getByText(`1-${total} de ${total}`)).toBeVisible()

  // Sorting by email, both ways (the default is newest first).
  const firstEmail = () => page.getByRole('row').nth(1).getByRole('cell').first()
  await page.getByRole('button', { name: 'Email' }).click()
  await expect(page).toHaveURL(/order=ASC/)
  await expect(firstEmail()).toHaveText(SUPER_ADMIN.email)
  await page.getByRole('button', { name: 'Email' }).click()
  await expect(page).toHaveURL(/order=DESC/)
  // The seed's accounts: admin@, demo@, editora@ and revisor@vetclube.dev.
  await expect(firstEmail()).toHaveText('revisor@vetclube.dev')

  // Role filter: only super admins.
  await page.getByRole('combobox', { name: 'Papel' }).click()
  await page.getByRole('option', { name: 'Super administrador' }).click()
  await expect(userRow(page, SUPER_ADMIN.email)).toBeVisible()
  await expect(userRow(page, DEMO.email)).toHaveCount(0)
  await page.getByRole('combobox', { name: 'Papel' }).click()
  await page.getByRole('option', { name: 'Limpar valor' }).click()

  // Search by email.
  await page.getByPlaceholder('Buscar por nome ou email').fill('demo@')
  await expect(userRow(page, DEMO.email)).toBeVisible()
  await expect(userRow(page, SUPER_ADMIN.email)).toHaveCount(0)

  // Grant editor on the demo user's page.
  await userRow(page, DEMO.email).getByText(DEMO.email).click()
  await expect(page).toHaveURL(/#\/users\/[0-9a-f-]{36}\/show/)
  const demoId = page.url().match(/users\/([0-9a-f-]{36})/)![1]
  await page.getByRole('button', { name: 'Conceder Editor' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Conceder' }).click()
  await expect(page.getByText('Papel Editor concedido.')).toBeVisible()
  await expect(page.getByTestId('role-chips').getByText('Editor')).toBeVisible()
  const granted = await (await page.request.get(`/api/admin/users/${demoId}`)).json()
  // The seeded demo account is in its trial: the roles say so.
  expect(granted.roles).toEqual(['user', 'trial', 'editor'])

  // As an editor the demo user now gets in, without the users menu.
  const editorContext = await browser.newContext()
  const editorPage = await editorContext.newPage()
  await signIn(editorPage, DEMO)
  await expect(editorPage.getByRole('heading', { name: 'Painel do VetClube' })).toBeVisible()
  await expect(editorPage.getByText('A gestão de usuários é restrita a super administradores.')).toBeVisible()
  await expect(editorPage.getByRole('menuitem', { name: 'Usuários' })).toHaveCount(0)
  await editorContext.close()

  // The editors filter finds them; then revoke.
  await page.goto(`/backoffice/#/users?filter=${encodeURIComponent(JSON.stringify({ role: 'editor' }))}`)
  await expect(userRow(page, DEMO.email)).toBeVisible()
  await expect(userRow(page, SUPER_ADMIN.email)).toHaveCount(0)
  await page.goto(`/backoffice/#/users/${demoId}/show`)
  await page.getByRole('button', { name: 'Remover Editor' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Remover' }).click()
  await expect(page.getByText('Papel Editor removido.')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Conceder Editor' })).toBeVisible()
  const revoked = await (await page.request.get(`/api/admin/users/${demoId}`)).json()
  expect(revoked.roles).toEqual(['user', 'trial'])

  // A super admin cannot take away their own super_admin role.
  const adminRow = await (await page.request.get(`/api/admin/users?filter=${encodeURIComponent('{"q":"admin@vetclube.dev"}')}`)).json()
  await page.goto(`/backoffice/#/users/${adminRow[0].id}/show`)
  await expect(page.getByRole('button', { name: 'Remover Super administrador' })).toBeDisabled()

  // An expired access cookie is renewed through /api/auth/refresh without a new sign-in.
  await page.context().clearCookies({ name: 'vc_access' })
  const refreshed = page.waitForResponse((res) => res.url().endsWith('/api/auth/refresh') && res.status() === 200)
  // (react-admin remembers the last list filter: ask for none explicitly.)
  await page.goto('/backoffice/#/users?filter=%7B%7D')
  await refreshed
  await expect(userRow(page, DEMO.email)).toBeVisible()

  // Sign out.
  await page.getByRole('button', { name: 'Perfil' }).click()
  await page.getByRole('menuitem', { name: 'Sair' }).click()
  await expect(page).toHaveURL(/#\/login/)
  expect((await page.request.get('/api/auth/session')).status()).toBe(401)
})
