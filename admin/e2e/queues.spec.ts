import { expect, test, type Page } from '@playwright/test'
import { finishTwoStep } from './support/twoStep'
import { expectNoSeriousA11yViolations } from './support/a11y'

// The review loop's work queues on a phone and a desktop: a news item sent
// for review waits in the reviewer's 'Aguardando minha revisão'; once changes
// are requested, the editor's 'Alterações solicitadas a mim' shows it with
// the reviewer's comment. Axe clean; the dashboard never scrolls sideways.

const EDITOR = { email: 'editora@vetclube.dev', password: 'Pauta#Editora26' }
const REVISOR = { email: 'revisor@vetclube.dev', password: 'Revisao#Pauta26' }
const BODY = 'Texto da notícia com conteúdo suficiente para a revisão, sobre vacinação e calendário de reforços.'

async function signIn(page: Page, who: { email: string; password: string }) {
  await page.goto('/backoffice/')
  await page.getByRole('textbox', { name: 'Email' }).fill(who.email)
  await page.getByRole('textbox', { name: 'Senha' }).fill(who.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await finishTwoStep(page, who.email)
  await expect(page.getByRole('heading', { name: 'Painel do VetClube' })).toBeVisible({ timeout: 30_000 })
}

async function act(page: Page, path: string, data: unknown) {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'vc_csrf')?.value ?? ''
  const res = await page.request.post(path, { headers: { 'X-CSRF-Token': csrf }, data })
  expect(res.ok(), await res.text()).toBe(true)
  return res.json()
}

async function fitsTheScreen(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(page.viewportSize()!.width)
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test(`the reviewer's and the editor's queues at ${viewport.width} px`, async ({ browser }) => {
    const title = `Reforço vacinal em cães adultos ${viewport.width}-${Date.now().toString(36)}`
    const editor = await (await browser.newContext({ viewport })).newPage()
    await signIn(editor, EDITOR)
    let item = await act(editor, '/api/admin/content/noticias', { title, summary: 'Resumo', fields: { body: BODY, category: 'saude-publica' } })
    item = await act(editor, `/api/admin/content/noticias/${item.id}/actions/submit`, { version: item.version })

    const revisor = await (await browser.newContext({ viewport })).newPage()
    await signIn(revisor, REVISOR)
    const waiting = revisor.getByTestId('queue-review')
    await expect(waiting.getByRole('heading', { name: /^Aguardando minha revisão/ })).toBeVisible()
    await expect(waiting.getByRole('link', { name: title })).toBeVisible()
    await fitsTheScreen(revisor)
    await expectNoSeriousA11yViolations(revisor, `fila do revisor (${viewport.width} px)`)
    await act(revisor, `/api/admin/content/noticias/${item.id}/actions/request_changes`, { version: item.version, reason: 'Cite a fonte do calendário.' })

    await editor.reload()
    const changes = editor.getByTestId('queue-changes')
    await expect(changes.getByRole('heading', { name: /^Alterações solicitadas a mim/ })).toBeVisible()
    await expect(changes.getByRole('link', { name: title })).toBeVisible()
    await expect(changes).toContainText('Cite a fonte do calendário.')
    await fitsTheScreen(editor)
    await expectNoSeriousA11yViolations(editor, `fila da editora (${viewport.width} px)`)
  })
}
