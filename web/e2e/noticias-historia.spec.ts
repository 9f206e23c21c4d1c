import { expect, test, type Browser, type Page } from '@playwright/test'
import { apiPost, signedInUser, signInByApi } from './support/users'

// The whole editorial story of one news item, in the real backoffice and the
// real PWA, with the real publication timer (the embedded Temporal server).
// Dev seed accounts (core/app/seed.go).
const EDITOR = { email: 'editora@vetclube.dev', password: 'Pauta#Editora26' }
const REVISOR = { email: 'revisor@vetclube.dev', password: 'Revisao#Pauta26' }
const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' }

async function backoffice(browser: Browser, account: { email: string; password: string }): Promise<Page> {
  const context = await browser.newContext()
  await signInByApi(context, account)
  const page = await context.newPage()
  await page.goto('/backoffice/#/content/noticias')
  await expect(page.getByRole('heading', { name: 'Notícias' })).toBeVisible({ timeout: 30_000 })
  return page
}

/** "YYYY-MM-DDTHH:mm" in São Paulo, minutes from now (rounded up to the next minute). */
function saoPauloWallTime(minutesAhead: number): string {
  const at = new Date(Math.ceil((Date.now() + minutesAhead * 60_000) / 60_000) * 60_000)
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/Sao_Paulo', hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
    })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  )
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`
}

const TITLE = 'Vacinação contra leishmaniose: o que muda na rotina da clínica'
const FIXED = 'Leishmaniose visceral canina: o que muda na rotina da clínica'
const BODY =
  'A vacinação contra a leishmaniose visceral canina ganhou novas recomendações. ' +
  'O protocolo inclui exame sorológico prévio, três doses iniciais e reforço anual, além do uso de coleiras repelentes.'

test('an editor writes, a reviewer asks for a change and schedules it; it appears for readers when the timer fires; later edits wait for republishing', async ({
  browser,
  page,
  context,
  request,
}) => {
  test.setTimeout(360_000)
  const editor = await backoffice(browser, EDITOR)
  await editor.getByRole('link', { name: 'Criar' }).click()
  await editor.getByRole('textbox', { name: 'Título' }).fill(TITLE)
  await editor.getByRole('textbox', { name: 'Resumo' }).fill('Novas recomendações para cães em áreas endêmicas.')
  await editor.getByRole('textbox', { name: 'Texto' }).fill(BODY)
  await editor.getByRole('combobox', { name: 'Categoria' }).click()
  await editor.getByRole('option', { name: 'Saúde pública' }).click()
  await editor.getByRole('button', { name: 'Salvar' }).click()
  await expect(editor).toHaveURL(/#\/content\/noticias\/[0-9a-f-]{36}$/)
  const id = editor.url().match(/noticias\/([0-9a-f-]{36})/)![1]
  await editor.getByRole('button', { name: 'Enviar para revisão' }).click()
  await expect(editor.getByText('Em revisão').first()).toBeVisible()
  await editor.goto('/backoffice/#/content/noticias') // leaves the item (and its edit lock)

  const revisor = await backoffice(browser, REVISOR)
  await revisor.goto(`/backoffice/#/content/noticias/${id}`)
  await revisor.getByRole('button', { name: 'Solicitar alterações' }).click()
  await revisor.getByRole('textbox', { name: 'O que precisa mudar' }).fill('Deixe claro no título que é a leishmaniose visceral.')
  await revisor.getByRole('dialog').getByRole('button', { name: 'Solicitar alterações' }).click()
  await expect(revisor.getByText('Alterações solicitadas').first()).toBeVisible()
  await revisor.goto('/backoffice/#/content/noticias')

  await editor.goto(`/backoffice/#/content/noticias/${id}`)
  await expect(editor.getByText('Alterações solicitadas').first()).toBeVisible()
  await editor.getByRole('textbox', { name: 'Título' }).fill(FIXED)
  await editor.getByRole('button', { name: 'Salvar' }).click()
  await expect(editor.getByText('Registro atualizado')).toBeVisible()
  await editor.getByRole('button', { name: 'Enviar para revisão' }).click()
  await expect(editor.getByText('Em revisão').first()).toBeVisible()
  await editor.goto('/backoffice/#/content/noticias')

  await revisor.goto(`/backoffice/#/content/noticias/${id}`)
  await revisor.getByRole('button', { name: 'Aprovar' }).click()
  await expect(revisor.getByText('Aprovado').first()).toBeVisible()
  await revisor.getByRole('button', { name: 'Agendar publicação' }).click()
  const when = saoPauloWallTime(1)
  await revisor.getByLabel('Publicar em').fill(when)
  await revisor.getByRole('dialog').getByRole('button', { name: 'Agendar publicação' }).click()
  await expect(revisor.getByText('Agendado').first()).toBeVisible()
  await expect(revisor.getByTestId('next-publish')).toContainText(`${when.slice(11)}`)
  await revisor.goto('/backoffice/#/content/noticias') // leaves the item (and its edit lock)

  // A signed-in reader does not see it yet...
  await signedInUser(context, request)
  await page.goto('/noticias-veterinarias')
  const card = page.getByRole('heading', { level: 2, name: FIXED })
  await expect(page.getByRole('heading', { name: 'Notícias', level: 1 })).toBeVisible()
  await expect(card).toHaveCount(0)
  // ...and does once the timer fires (at most two minutes away, plus slack).
  await expect(async () => {
    await page.reload()
    await expect(card).toBeVisible({ timeout: 3_000 })
  }).toPass({ timeout: 200_000, intervals: [5_000] })
  await card.getByRole('link').click()
  await expect(page.getByRole('heading', { name: FIXED, level: 1 })).toBeVisible()
  const articleURL = page.url()

  // Editing it afterwards leaves what readers see unchanged until it is republished.
  await editor.goto(`/backoffice/#/content/noticias/${id}`)
  await expect(editor.getByText('Publicado').first()).toBeVisible()
  await editor.getByRole('textbox', { name: 'Título' }).fill(`${FIXED} (atualizado)`)
  await editor.getByRole('button', { name: 'Salvar' }).click()
  await expect(editor.getByText('Alterações não publicadas')).toBeVisible()
  await page.goto(articleURL)
  await expect(page.getByRole('heading', { name: FIXED, level: 1 })).toBeVisible()
  await expect(page.getByText('(atualizado)')).toHaveCount(0)

  const admin = await browser.newContext()
  await signInByApi(admin, SUPER_ADMIN)
  let item = await (await admin.request.get(`/api/admin/content/noticias/${id}`)).json()
  for (const action of ['submit', 'approve', 'publish']) {
    const res = await apiPost(admin, `/api/admin/content/noticias/${id}/actions/${action}`, { version: item.version })
    expect(res.status(), await res.text()).toBe(200)
    item = await res.json()
  }
  await page.reload()
  await expect(page.getByRole('heading', { name: `${FIXED} (atualizado)`, level: 1 })).toBeVisible()
})
