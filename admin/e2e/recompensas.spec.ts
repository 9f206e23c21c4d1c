import { expect, test, type Page } from '@playwright/test'
import { finishTwoStep } from './support/twoStep'

// Backoffice Recompensas with the dev seed's super admin: a voucher reward is
// created, a CSV with a repeated code is refused naming its line, a clean
// CSV loads its codes into the stock, and the catalogue lists the reward.
const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' } // core/app/seed/seed.go

async function signIn(page: Page) {
  await page.goto('/backoffice/')
  await page.getByRole('textbox', { name: 'Email' }).fill(SUPER_ADMIN.email)
  await page.getByRole('textbox', { name: 'Senha' }).fill(SUPER_ADMIN.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await finishTwoStep(page, SUPER_ADMIN.email)
  await expect(page.getByRole('heading', { level: 1, name: 'Painel do VetClube' })).toBeVisible()
}

test('Recompensas: create a voucher reward, refuse a CSV with duplicates, load one, see the stock', async ({ page }) => {
  test.setTimeout(90_000)
  await signIn(page)
  await page.goto('/backoffice/#/rewards')
  // The seeded catalogue is listed.
  await expect(page.getByText('Voucher 15% na VetLoja parceira')).toBeVisible()

  await page.goto('/backoffice/#/rewards/create')
  const title = `Voucher e2e ${Date.now()}`
  await page.getByRole('textbox', { name: 'Título' }).fill(title)
  await page.getByRole('combobox', { name: 'Tipo' }).click()
  await page.getByRole('option', { name: 'Voucher de parceiro (códigos)' }).click()
  await page.getByRole('spinbutton', { name: 'Custo em VetCoins' }).fill('40')
  await page.getByRole('textbox', { name: 'Como usar (o membro vê com o código)' }).fill('Informe o código no caixa do parceiro.')
  await page.getByRole('button', { name: 'Salvar' }).click()

  const panel = page.getByRole('region', { name: 'Códigos do voucher' })
  await expect(panel).toContainText('0 disponível(is) de 0 carregado(s)')

  // Line 4 repeats line 2: the whole file is refused, naming the line.
  await panel.getByLabel('Arquivo CSV de códigos').setInputFiles({
    name: 'codigos.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('codigo\nE2E-AAA\nE2E-BBB\nE2E-AAA\n'),
  })
  await expect(panel.getByRole('alert')).toContainText('Linha 4')
  await expect(panel).toContainText('0 disponível(is) de 0 carregado(s)')

  await panel.getByLabel('Arquivo CSV de códigos').setInputFiles({
    name: 'codigos.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('codigo\nE2E-AAA\nE2E-BBB\nE2E-CCC\n'),
  })
  await expect(page.getByText('3 código(s) carregado(s).')).toBeVisible()
  await expect(panel).toContainText('3 disponível(is) de 3 carregado(s)')

  await page.goto('/backoffice/#/rewards')
  const row = page.getByRole('row').filter({ hasText: title })
  await expect(row).toContainText('Voucher')
  await expect(row).toContainText('40')
  await expect(row.getByRole('cell').nth(3)).toHaveText('3')

  // The redemptions list with its filters.
  await page.goto('/backoffice/#/reward-redemptions')
  await expect(page.getByRole('combobox', { name: 'Situação' })).toBeVisible()
})
