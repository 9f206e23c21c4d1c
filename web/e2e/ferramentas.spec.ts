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
    await expect(dose.getByText('Preencha o peso.')).toBeVisible()
    await dose.getByLabel('Peso (kg)').fill('10')
    await dose.getByLabel('Dose (mg/kg)').fill('5')
    await dose.getByLabel('Concentração (mg/mL)').fill('0')
    await dose.getByRole('button', { name: 'Calcular dose' }).click()
    await expect(dose.getByText(/^A concentração deve ser/)).toBeVisible()
    await dose.getByLabel('Concentração (mg/mL)').fill('50')
    await dose.getByRole('button', { name: 'Calcular dose' }).click()
    const result = page.getByRole('region', { name: 'Resultado' })
    await expect(result.getByText(/^50(,0+)? mg$/)).toBeVisible()
    await expect(result.getByText(/^1(,0+)? mL$/)).toBeVisible()
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

  test('calculator tabs have their own URL and keep their inputs', async ({ page, context, request }) => {
    await signedInUser(context, request)
    await page.goto('/ferramentas/calculadoras')
    const tabs = page.getByRole('tablist', { name: 'Calculadoras' })
    const dose = page.getByRole('form', { name: 'Dose de medicamento' })
    await dose.getByLabel('Dose (mg/kg)').fill('5')

    await tabs.getByRole('tab', { name: /Necessidade energética/ }).click()
    await expect(page).toHaveURL(/\/ferramentas\/calculadoras\?aba=energia$/)
    const energy = page.getByRole('form', { name: /Necessidade energética/ })
    await energy.getByLabel('Peso (kg)').fill('12')

    // Back to dose and forth again: each tab kept what was typed in it.
    await tabs.getByRole('tab', { name: 'Dose de medicamento' }).click()
    await expect(page).toHaveURL(/\?aba=dose$/)
    await expect(dose.getByLabel('Dose (mg/kg)')).toHaveValue('5')
    await tabs.getByRole('tab', { name: /Necessidade energética/ }).click()
    await expect(energy.getByLabel('Peso (kg)')).toHaveValue('12')

    // The browser's back button returns to the previous tab; a reload keeps the open one.
    await page.goBack()
    await expect(tabs.getByRole('tab', { name: 'Dose de medicamento' })).toHaveAttribute('aria-selected', 'true')
    await page.goForward()
    await expect(tabs.getByRole('tab', { name: /Necessidade energética/ })).toHaveAttribute('aria-selected', 'true')
    await page.reload()
    await expect(page).toHaveURL(/\?aba=energia$/)
    await expect(page.getByRole('tab', { name: /Necessidade energética/ })).toHaveAttribute('aria-selected', 'true')
    await expect(page.getByRole('form', { name: /Necessidade energética/ })).toBeVisible()
  })

  test('SWOT: saves a typed item not yet added, asks before leaving unsaved, deletes through the app dialog', async ({
    page,
    context,
    request,
  }) => {
    await signedInUser(context, request)
    await page.goto('/ferramentas/analise-swot')
    await page.getByRole('button', { name: 'Nova análise' }).click()
    await page.getByLabel('Título da análise').fill('Análise pendente')
    // Typed but never added with the + button: saving still keeps it.
    await page.getByLabel('Novo item em Oportunidades').fill('Parceria com pet shop')
    await page.getByRole('button', { name: 'Salvar análise' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Análise salva.' })).toBeVisible()
    await expect(page.getByRole('list', { name: 'Oportunidades' }).getByText('Parceria com pet shop')).toBeVisible()
    await expect(page.getByLabel('Novo item em Oportunidades')).toHaveValue('')

    // An unsaved change: leaving through the app asks first; "stay" keeps the editor.
    await page.getByLabel('Novo item em Fraquezas').fill('Estacionamento pequeno')
    await page.getByRole('main').getByRole('link', { name: 'Ferramentas' }).click()
    const leave = page.getByRole('dialog', { name: 'Sair sem salvar?' })
    await expect(leave).toBeVisible()
    await leave.getByRole('button', { name: 'Continuar editando' }).click()
    await expect(leave).toBeHidden()
    await expect(page).toHaveURL(/\/ferramentas\/analise-swot$/)
    await expect(page.getByLabel('Novo item em Fraquezas')).toHaveValue('Estacionamento pequeno')

    // ...and "leave" goes on without saving.
    await page.getByRole('main').getByRole('link', { name: 'Ferramentas' }).click()
    await expect(leave).toBeVisible()
    await leave.getByRole('button', { name: 'Sair sem salvar' }).click()
    await expect(page).toHaveURL(/\/ferramentas$/)

    // The saved analysis is there without the unsaved item; delete it through the app's dialog.
    await page.goto('/ferramentas/analise-swot')
    await page.getByRole('button', { name: /Análise pendente/ }).click()
    await expect(page.getByRole('list', { name: 'Oportunidades' }).getByText('Parceria com pet shop')).toBeVisible()
    await expect(page.getByRole('list', { name: 'Fraquezas' }).getByRole('listitem')).toHaveCount(0)
    let nativeDialog = false
    page.on('dialog', (d) => {
      nativeDialog = true
      void d.dismiss()
    })
    await page.getByRole('button', { name: 'Excluir', exact: true }).click()
    const confirm = page.getByRole('dialog', { name: 'Excluir esta análise?' })
    await confirm.getByRole('button', { name: 'Cancelar' }).click()
    await expect(confirm).toBeHidden()
    await page.getByRole('button', { name: 'Excluir', exact: true }).click()
    await confirm.getByRole('button', { name: 'Excluir análise' }).click()
    await expect(page.getByRole('button', { name: 'Nova análise' })).toBeVisible()
    await expect(page.getByRole('button', { name: /Análise pendente/ })).toHaveCount(0)
    expect(nativeDialog).toBe(false)
  })
})
