import { expect, test } from '@playwright/test'
import { signedInUser } from './support/users'

// The tools are real plugin processes: `make build` (or `make plugins`) puts
// them in bin/plugins, where the server started by global-setup loads them.
test.describe('ferramentas', () => {
  test('lists the tools, runs a dose calculation and saves a SWOT analysis', async ({ page, context, request }) => {
    await signedInUser(context, request)

    await page.goto('/ferramentas')
    await expect(page.getByRole('heading', { name: 'Ferramentas', level: 1 })).toBeVisible()
    const catalogue = page.getByRole('main')
    await expect(catalogue.getByRole('link', { name: /Calculadora de Preço de Serviço/ })).toBeVisible()
    await expect(catalogue.getByRole('link', { name: /Análise SWOT/ })).toBeVisible()
    await catalogue.getByRole('link', { name: /Calculadoras Veterinárias/ }).click()

    // Dose: 10 kg × 5 mg/kg = 50 mg; ÷ 50 mg/mL = 1 mL.
    await expect(page).toHaveURL(/\/ferramentas\/calculadoras$/)
    const dose = page.getByRole('form', { name: 'Dose de medicamento' })
    await dose.getByRole('button', { name: 'Calcular dose' }).click()
    await expect(dose.getByText('Preencha peso.')).toBeVisible()
    await dose.getByLabel('Peso (kg)').fill('10')
    await dose.getByLabel('Dose (mg/kg)').fill('5')
    await dose.getByLabel('Concentração (mg/mL)').fill('0')
    await dose.getByRole('button', { name: 'Calcular dose' }).click()
    await expect(dose.getByText('Concentração deve ser no mínimo 0,0001 mg/mL.')).toBeVisible()
    await dose.getByLabel('Concentração (mg/mL)').fill('50')
    await dose.getByRole('button', { name: 'Calcular dose' }).click()
    const result = page.getByRole('region', { name: 'Resultado' })
    await expect(result.getByText('50,00 mg', { exact: true })).toBeVisible()
    await expect(result.getByText('1,00 mL', { exact: true })).toBeVisible()
    await expect(result.getByText('Referência: Plumb', { exact: false })).toBeVisible()

    // SWOT: create, add items, save; it is still there after a reload.
    await page.goto('/ferramentas/analise-swot')
    await page.getByRole('button', { name: 'Nova análise' }).click()
    await page.getByLabel('Título da análise').fill('Minha clínica 2027')
    await page.getByLabel('Novo item em Forças').fill('Equipe experiente')
    await page.getByRole('button', { name: 'Adicionar em Forças' }).click()
    await page.getByLabel('Novo item em Ameaças').fill('Nova clínica no bairro')
    await page.getByRole('button', { name: 'Adicionar em Ameaças' }).click()
    await page.getByRole('button', { name: 'Salvar análise' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Análise salva.' })).toBeVisible()

    await page.reload()
    await page.getByRole('button', { name: /Minha clínica 2027/ }).click()
    await expect(page.getByRole('list', { name: 'Forças' }).getByText('Equipe experiente')).toBeVisible()
    await expect(page.getByRole('list', { name: 'Ameaças' }).getByText('Nova clínica no bairro')).toBeVisible()
  })
})
