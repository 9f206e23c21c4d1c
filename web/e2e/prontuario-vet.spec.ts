import { readFile } from 'node:fs/promises'
import { expect, test, type Page } from '@playwright/test'
import { apiPost, signedInUser } from './support/users'

// The medical record is a real plugin process (bin/plugins/prontuario-vet,
// built by `make plugins`) behind the real server.

const isoIn = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}
const br = (iso: string) => iso.split('-').reverse().join('/')

async function downloaded(page: Page, click: () => Promise<void>, name: RegExp) {
  const [download] = await Promise.all([page.waitForEvent('download'), click()])
  expect(download.suggestedFilename()).toMatch(name)
  const body = await readFile((await download.path())!)
  expect(body.subarray(0, 4).toString()).toBe('%PDF')
}

test.describe('prontuário vet', () => {
  test('a vet registers a patient, a consultation, a vaccine and a prescription, and exports the record (390 px)', async ({ page, context, request }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await signedInUser(context, request)
    await page.goto('/ferramentas/prontuario-vet')
    await page.getByRole('button', { name: 'Novo paciente' }).click({ timeout: 30_000 })
    const form = page.getByRole('form', { name: 'Novo paciente' })
    await form.getByLabel('Nome do paciente').fill('Bidu')
    await form.getByLabel('Espécie').selectOption('cao')
    await form.getByLabel('Peso atual (kg)').fill('10')
    await form.getByLabel('Nome do tutor').fill('Joana Ribeiro')
    await form.getByLabel('Telefone do tutor').fill('(11) 91234-5678')
    await form.getByLabel('CPF do tutor (opcional)').fill('529.982.247-26')
    await form.getByRole('button', { name: 'Cadastrar paciente' }).click()
    await expect(form.getByText('CPF inválido: confira os dígitos.')).toBeVisible()
    await form.getByLabel('CPF do tutor (opcional)').fill('529.982.247-25')
    await form.getByRole('button', { name: 'Cadastrar paciente' }).click()

    await expect(page.getByRole('heading', { name: 'Bidu', level: 2 })).toBeVisible()
    await expect(page.getByRole('link', { name: 'WhatsApp' })).toHaveAttribute('href', 'https://wa.me/5511912345678')

    // A consultation with a fever: the temperature is highlighted.
    await page.getByRole('button', { name: 'Novo registro' }).click()
    let rec = page.getByRole('form', { name: 'Novo registro' })
    await rec.getByLabel('Anamnese').fill('Apatia e hiporexia há dois dias.')
    await expect(rec.getByText('Referência: 37,5–39,2 °C')).toBeVisible()
    await rec.getByLabel('Temperatura (°C)').fill('40,5')
    await rec.getByLabel('Frequência cardíaca (bpm)').fill('110')
    await rec.getByRole('button', { name: 'Salvar registro' }).click()
    const vitals = page.getByRole('list', { name: 'Sinais vitais' })
    const fever = vitals.getByRole('listitem').filter({ hasText: 'Temperatura' })
    await expect(fever).toContainText('40,5 °C')
    await expect(fever).toContainText('acima da referência')
    await expect(fever).toHaveAttribute('data-status', 'alto')
    await expect(vitals.getByRole('listitem').filter({ hasText: 'Frequência cardíaca' })).toHaveAttribute('data-status', 'normal')

    // A vaccine with its next dose.
    const next = isoIn(20)
    await page.getByRole('button', { name: 'Novo registro' }).click()
    rec = page.getByRole('form', { name: 'Novo registro' })
    await rec.getByLabel('Tipo de registro').selectOption('vacina')
    await rec.getByLabel('Vacina').fill('V10')
    await rec.getByLabel('Lote').fill('L123')
    await rec.getByLabel('Próxima dose').fill(next)
    await rec.getByRole('button', { name: 'Salvar registro' }).click()
    await expect(page.getByText(`Próxima dose: ${br(next)}`)).toBeVisible()

    // A prescription: the dose comes from the calculators' formula; printed as PDF.
    await page.getByRole('button', { name: 'Novo registro' }).click()
    rec = page.getByRole('form', { name: 'Novo registro' })
    await rec.getByLabel('Tipo de registro').selectOption('prescricao')
    await rec.getByLabel('Medicamento').fill('Amoxicilina')
    await rec.getByLabel('Concentração (mg/mL)').fill('50')
    await rec.getByLabel('Dose (mg/kg)').fill('20')
    await rec.getByLabel('Peso (kg)').fill('10')
    await rec.getByLabel('Via de administração').selectOption('Oral')
    await rec.getByLabel('Frequência').fill('A cada 12 horas')
    await rec.getByLabel('Duração').fill('7 dias')
    await expect(rec.getByText('Dose calculada:')).toContainText('200 mg = 4 mL')
    await rec.getByRole('button', { name: 'Salvar registro' }).click()
    const rx = page.getByRole('article', { name: /^Receita de/ })
    await expect(rx).toContainText('20 mg/kg × 10 kg = 200 mg (4 mL)')
    await downloaded(page, () => rx.getByRole('button', { name: 'Imprimir receita (PDF)' }).click(), /^receita-Bidu-.*\.pdf$/)

    // Records newest first (same date: the last one written on top), then the full record as PDF.
    const articles = page.getByRole('list', { name: 'Registros do paciente' }).getByRole('article')
    await expect(articles).toHaveCount(4)
    await expect(articles.first()).toHaveAccessibleName(/^Receita/)
    await downloaded(page, () => page.getByRole('button', { name: 'Exportar prontuário (PDF)' }).click(), /^prontuario-Bidu\.pdf$/)

    // The list shows the upcoming vaccine.
    await page.getByRole('button', { name: 'Pacientes' }).click()
    await expect(page.getByRole('list', { name: 'Próximas vacinas' })).toContainText(`${br(next)} — V10 de Bidu`)
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
  })

  test('the 11th active patient of a trial member is refused with the reason (1280 px)', async ({ page, context, request }) => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await signedInUser(context, request)
    for (let i = 1; i <= 10; i++) {
      const res = await apiPost(context, '/api/tools/prontuario-vet/patients', { name: `Paciente ${i}`, species: 'gato' })
      expect(res.status()).toBe(201)
    }
    await page.goto('/ferramentas/prontuario-vet')
    // The first open of the tool loads its chunk: slow on a busy machine.
    await expect(page.getByRole('button', { name: 'Novo paciente' })).toBeVisible({ timeout: 30_000 })
    await expect(page.getByText('10 de 10 pacientes ativos no período de teste')).toBeVisible()
    await expect(page.getByRole('list', { name: 'Lista de pacientes' }).getByRole('listitem')).toHaveCount(10)
    await page.getByLabel('Buscar por paciente, tutor ou microchip').fill('paciente 10')
    await expect(page.getByRole('list', { name: 'Lista de pacientes' }).getByRole('listitem')).toHaveCount(1)

    await page.getByRole('button', { name: 'Novo paciente' }).click()
    const form = page.getByRole('form', { name: 'Novo paciente' })
    await form.getByLabel('Nome do paciente').fill('Paciente 11')
    await form.getByRole('button', { name: 'Cadastrar paciente' }).click()
    const alert = form.getByRole('alert')
    await expect(alert).toContainText('Você atingiu o limite de 10 pacientes')
    await expect(alert.getByRole('link', { name: 'Conhecer o Premium' })).toHaveAttribute('href', '/pricing')
  })
})
