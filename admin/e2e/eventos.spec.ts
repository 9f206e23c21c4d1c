import { expect, test, type Browser, type Page } from '@playwright/test'
import { finishTwoStep } from './support/twoStep'

// Dev seed (core/app/seed.go): the demo editor and reviewer; the events
// plugin's type (plugins/eventos) loaded from bin/plugins. No admin code is
// specific to events: the resource is generated from the type's declaration.
const EDITOR = { email: 'editora@vetclube.dev', password: 'Pauta#Editora26' }
const REVISOR = { email: 'revisor@vetclube.dev', password: 'Revisao#Pauta26' }

async function signedIn(browser: Browser, account: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await page.goto('/backoffice/')
  await page.getByRole('textbox', { name: 'Email' }).fill(account.email)
  await page.getByRole('textbox', { name: 'Senha' }).fill(account.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await finishTwoStep(page, account.email)
  await expect(page.getByRole('heading', { name: 'Painel do VetClube' })).toBeVisible({ timeout: 30_000 })
  return page
}

test('an editor creates an event in the generated Eventos resource and a reviewer publishes it', async ({ browser }) => {
  test.slow()
  const editor = await signedIn(browser, EDITOR)
  await editor.getByRole('menuitem', { name: 'Eventos' }).click()
  await expect(editor).toHaveURL(/#\/content\/eventos/)
  await editor.getByRole('link', { name: 'Criar' }).click()
  await editor.getByRole('textbox', { name: 'Título' }).fill('Workshop de anestesia inalatória')
  await editor.getByRole('textbox', { name: 'Descrição' }).fill('Montagem do circuito, vaporizadores e monitoração do paciente anestesiado.')
  await editor.getByRole('combobox', { name: 'Tipo de evento' }).click()
  await editor.getByRole('option', { name: 'Workshop' }).click()
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + 15 * 24 * 3600 * 1000))
  await editor.getByRole('textbox', { name: 'Data', exact: true }).fill(day)
  await editor.getByRole('textbox', { name: 'Horário de início' }).fill('18:30')
  await editor.getByRole('spinbutton', { name: 'Vagas' }).fill('20')
  await editor.getByRole('button', { name: 'Salvar' }).click()
  // The plugin's own rule, answered by the server, beside its field.
  await expect(editor.getByText('Informe o local do evento presencial.')).toBeVisible()
  await editor.getByRole('textbox', { name: 'Local' }).fill('Hospital Veterinário Escola, São Paulo')
  await editor.getByRole('button', { name: 'Salvar' }).click()
  await expect(editor).toHaveURL(/#\/content\/eventos\/[0-9a-f-]{36}$/)
  const id = editor.url().match(/eventos\/([0-9a-f-]{36})/)![1]
  await editor.getByRole('button', { name: 'Enviar para revisão' }).click()
  await expect(editor.getByText('Em revisão').first()).toBeVisible()

  const reviewer = await signedIn(browser, REVISOR)
  await reviewer.goto(`/backoffice/#/content/eventos/${id}`)
  await reviewer.getByRole('button', { name: 'Aprovar' }).click()
  await expect(reviewer.getByText('Aprovado').first()).toBeVisible()
  await reviewer.getByRole('button', { name: 'Publicar agora' }).click()
  await reviewer.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click()
  await expect(reviewer.getByText('Publicado').first()).toBeVisible()
  await expect
    .poll(async () => {
      const res = await reviewer.request.get(`/api/eventos/${id}`)
      if (!res.ok()) return `${res.status()}`
      const e = await res.json()
      return `${e.event_type}|${e.event_date}|${e.event_time}|${e.seats_left}|${e.is_active}`
    })
    .toBe(`Workshop|${day}|18:30|20|true`)
})
