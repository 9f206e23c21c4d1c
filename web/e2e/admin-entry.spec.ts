import { expect, test } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { signInByApi, signedInUser } from './support/users'

// The Admin menu entry: only super admins see it, and it leads
// from the PWA into the react-admin backoffice with the same session.
const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' } // dev seed, core/app/seed.go

test.use({ viewport: { width: 1280, height: 800 } })

test('a super admin goes from the Admin entry to the backoffice user list', async ({ page, context }) => {
  await signInByApi(context, SUPER_ADMIN)
  await page.goto('/')
  const sidebar = page.getByRole('navigation', { name: 'Menu principal' })
  await sidebar.getByRole('link', { name: 'Admin' }).click()

  await expect(page).toHaveURL(/\/admin$/)
  await expect(page.getByRole('heading', { name: 'Painel Administrativo' })).toBeVisible()
  await expect(sidebar.getByRole('link', { name: 'Admin' })).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('link', { name: 'Abrir backoffice' })).toHaveAttribute('href', '/backoffice/')
  await expectNoSeriousA11yViolations(page, '/admin as super admin')

  await page.getByRole('link', { name: 'Gerenciar Usuários no backoffice' }).click()
  await expect(page).toHaveURL(/\/backoffice\/#\/users/)
  // No second sign-in: the backoffice uses the session the PWA already has.
  // The first backoffice load (its bundle, then the session check, then the
  // list) can take well over the default 10 s on a busy machine; the row
  // appearing is the signal that it is done.
  await expect(page.getByRole('row').filter({ hasText: 'demo@vetclube.dev' })).toBeVisible({ timeout: 30_000 })
})

test('/admin/usuarios opens the backoffice list directly', async ({ page, context }) => {
  await signInByApi(context, SUPER_ADMIN)
  await page.goto('/admin/usuarios')
  await expect(page).toHaveURL(/\/backoffice\/#\/users/)
  // A first backoffice load too: the same budget as above.
  await expect(page.getByRole('row').filter({ hasText: SUPER_ADMIN.email })).toBeVisible({ timeout: 30_000 })
})

test('a regular user has no Admin entry and /admin tells them it is restricted', async ({ page, context, request }) => {
  await signedInUser(context, request)
  await page.goto('/')
  const sidebar = page.getByRole('navigation', { name: 'Menu principal' })
  await expect(sidebar.getByRole('link', { name: 'Início' })).toBeVisible()
  await expect(sidebar.getByRole('link', { name: 'Admin' })).toHaveCount(0)

  await page.goto('/admin')
  await expect(page.getByRole('alert')).toContainText('Acesso restrito')
  await expect(page.getByRole('link', { name: 'Abrir backoffice' })).toHaveCount(0)
  await page.goto('/admin/usuarios')
  await expect(page.getByRole('alert')).toContainText('Esta área é exclusiva para editores, revisores, moderadores e administradores do VetClube.')
  await expect(page).toHaveURL(/\/admin\/usuarios$/)
})

test('an editor opens /admin and reaches the news in the backoffice, but not user management', async ({ page, context }) => {
  await signInByApi(context, { email: 'editora@vetclube.dev', password: 'Pauta#Editora26' }) // dev seed
  await page.goto('/admin')
  await expect(page.getByRole('heading', { name: 'Painel Administrativo' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Gerenciar Usuários no backoffice' })).toHaveCount(0)
  await page.getByRole('link', { name: 'Gerenciar Notícias no backoffice' }).click()
  await expect(page).toHaveURL(/\/backoffice\/#\/content\/noticias/)
  await expect(page.getByRole('row').filter({ hasText: 'Boas práticas de bem-estar no manejo de bovinos de corte' })).toBeVisible({ timeout: 30_000 })
  await page.goto('/admin/usuarios')
  await expect(page.getByText('Acesso restrito')).toBeVisible()
})
