import { expect, test, type Browser, type Page } from '@playwright/test'
import { finishTwoStep } from './support/twoStep'
import { expectNoSeriousA11yViolations } from './support/a11y'

// Dev seed (core/app/seed.go): the demo editor and reviewer, and the news
// plugin's type (plugins/noticias) loaded from bin/plugins.
const EDITOR = { email: 'editora@vetclube.dev', password: 'Pauta#Editora26' }
const REVISOR = { email: 'revisor@vetclube.dev', password: 'Revisao#Pauta26' }

async function signedIn(browser: Browser, account: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await page.goto('/backoffice/')
  await page.getByRole('textbox', { name: 'Email' }).fill(account.email)
  await page.getByRole('textbox', { name: 'Senha' }).fill(account.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await finishTwoStep(page, account.email)
  // The first load of the backoffice bundle can be slow on a busy machine.
  await expect(page.getByRole('heading', { name: 'Painel do VetClube' })).toBeVisible({ timeout: 30_000 })
  return page
}

const BODY =
  'O Conselho Federal de Medicina Veterinária publicou orientações sobre o atendimento remoto. ' +
  'As clínicas devem registrar o consentimento do tutor e manter o prontuário atualizado.'

test('an editor writes news, a reviewer asks for a change, approves and publishes; the history shows the diff', async ({ browser }) => {
  test.slow()
  const editor = await signedIn(browser, EDITOR)
  await editor.getByRole('menuitem', { name: 'Notícias' }).click()
  await expect(editor).toHaveURL(/#\/content\/noticias/)
  // The seed's items are listed with their states.
  await expect(editor.getByRole('row').filter({ hasText: 'Boas práticas de bem-estar' }).getByText('Rascunho')).toBeVisible()

  await editor.getByRole('link', { name: 'Criar' }).click()
  await editor.getByRole('textbox', { name: 'Título' }).fill('Telemedicina veterinária: novas orientações')
  await editor.getByRole('textbox', { name: 'Texto' }).fill(BODY)
  await editor.getByRole('combobox', { name: 'Categoria' }).click()
  await editor.getByRole('option', { name: 'Legislação' }).click()
  await editor.getByRole('textbox', { name: 'Link da fonte' }).fill('https://www.cfmv.gov.br/')
  await editor.getByRole('button', { name: 'Salvar' }).click()
  // The plugin's own rule, answered by the server, beside its field.
  await expect(editor.getByText('Informe o nome da fonte junto com o link.')).toBeVisible()
  await editor.getByRole('textbox', { name: 'Nome da fonte' }).fill('CFMV')
  await editor.getByRole('button', { name: 'Salvar' }).click()
  await expect(editor).toHaveURL(/#\/content\/noticias\/[0-9a-f-]{36}$/)
  const id = editor.url().match(/noticias\/([0-9a-f-]{36})/)![1]
  await expect(editor.getByText('Rascunho').first()).toBeVisible()
  // The reading time is the plugin's, computed from the text.
  await expect(editor.getByRole('spinbutton', { name: 'Tempo de leitura (min)' })).toHaveValue('1')
  await editor.getByRole('button', { name: 'Enviar para revisão' }).click()
  await expect(editor.getByText('Em revisão').first()).toBeVisible()
  // A confirmation in words, not "Feito.".
  await expect(editor.getByText('“Telemedicina veterinária: novas orientações” foi enviado para revisão.', { exact: false })).toBeVisible()
  // An editor may not approve or publish.
  await expect(editor.getByRole('button', { name: 'Aprovar' })).toHaveCount(0)
  // Equipe: the editor names the reviewer and shares the item with a colleague.
  await editor.getByRole('tab', { name: 'Equipe' }).click()
  await editor.getByRole('combobox', { name: 'Revisor responsável' }).click()
  await editor.getByRole('option', { name: /revisor@vetclube\.dev/ }).click()
  await expect(editor.getByText('Revisor atribuído; ele foi avisado.')).toBeVisible()
  expect((await (await editor.request.get(`/api/admin/content/noticias/${id}/reviewer`)).json()).reviewer_id).not.toBe('')
  await editor.getByRole('combobox', { name: 'Compartilhar com' }).click()
  await editor.getByRole('option', { name: /admin@vetclube\.dev/ }).click()
  await editor.getByRole('button', { name: 'Compartilhar', exact: true }).click()
  await expect(editor.getByRole('list', { name: 'Compartilhado com' }).getByText(/admin@vetclube\.dev/)).toBeVisible()

  const revisor = await signedIn(browser, REVISOR)
  // The reviewer's dashboard queue lists the item awaiting review.
  await expect(revisor.getByTestId('queue-review').getByRole('link', { name: 'Telemedicina veterinária: novas orientações' })).toBeVisible()
  await revisor.goto(`/backoffice/#/content/noticias/${id}`)
  // The editor, still on the page after sending it, gave the edit up: the
  // reviewer opens it free. The editor opens it again and holds it; the
  // reviewer sees who, and takes the edit over; the editor's next save is
  // refused with the reason.
  await expect(revisor.getByRole('button', { name: 'Solicitar alterações' })).toBeVisible()
  await expect(revisor.getByText(/está editando este conteúdo\./)).toHaveCount(0)
  await expect(editor.getByText('Você enviou este conteúdo para revisão e liberou a edição.', { exact: false })).toBeVisible()
  await revisor.goto('/backoffice/#/')
  await editor.reload()
  await expect(editor.getByRole('textbox', { name: 'Resumo' })).toBeEnabled()
  await revisor.goto(`/backoffice/#/content/noticias/${id}`)
  await expect(revisor.getByText(/^.+ está editando este conteúdo\./)).toBeVisible()
  await expect(revisor.getByText(/^Outra pessoa está editando/)).toHaveCount(0)
  await revisor.getByRole('button', { name: 'Assumir edição' }).click()
  await expect(revisor.getByText(/está editando este conteúdo\./)).toHaveCount(0)
  await editor.getByRole('textbox', { name: 'Resumo' }).fill('Resumo escrito depois de perder a edição')
  await editor.getByRole('button', { name: 'Salvar' }).click()
  await expect(editor.getByText('Outra pessoa assumiu a edição deste conteúdo. Suas alterações não foram salvas.')).toBeVisible()
  await revisor.getByRole('button', { name: 'Solicitar alterações' }).click()
  await revisor.getByRole('textbox', { name: 'O que precisa mudar' }).fill('Cite a resolução no título.')
  await revisor.getByRole('dialog').getByRole('button', { name: 'Solicitar alterações' }).click()
  await expect(revisor.getByText('Alterações solicitadas').first()).toBeVisible()
  await revisor.close()
  // The editor's dashboard queue lists the request with its comment …
  await editor.goto('/backoffice/#/')
  const changes = editor.getByTestId('queue-changes')
  await expect(changes.getByRole('link', { name: 'Telemedicina veterinária: novas orientações' })).toBeVisible()
  await expect(changes).toContainText('Cite a resolução no título.')
  // … and the item shows it at the top, above the form, not only in 'Linha do tempo'.
  await changes.getByRole('link', { name: 'Telemedicina veterinária: novas orientações' }).click()
  const request = editor.getByTestId('change-request')
  await expect(request).toContainText('Alterações solicitadas por')
  await expect(request).toContainText('Cite a resolução no título.')
  const requestBox = await request.boundingBox()
  const titleBox = await editor.getByRole('textbox', { name: 'Título' }).boundingBox()
  expect(requestBox!.y).toBeLessThan(titleBox!.y)
  // Back with the page reloaded, the editor takes the edit back.
  await editor.reload()
  await expect(editor.getByText(/está editando este conteúdo\./)).toBeVisible()
  await editor.getByRole('button', { name: 'Assumir edição' }).click()
  await expect(editor.getByText(/está editando este conteúdo\./)).toHaveCount(0)
  await expect(editor.getByText('Alterações solicitadas').first()).toBeVisible()
  await editor.getByRole('textbox', { name: 'Título' }).fill('Resolução do CFMV traz novas orientações para a telemedicina')
  await editor.getByRole('button', { name: 'Salvar' }).click()
  await expect(editor.getByText('Registro atualizado')).toBeVisible()
  await editor.getByRole('button', { name: 'Enviar para revisão' }).click()
  await expect(editor.getByText('Em revisão').first()).toBeVisible()
  // Sent again: the request is closed and leaves the item and the queue.
  await expect(editor.getByTestId('change-request')).toHaveCount(0)

  const reviewer = await signedIn(browser, REVISOR)
  await reviewer.goto(`/backoffice/#/content/noticias/${id}`)
  await reviewer.getByRole('button', { name: 'Aprovar' }).click()
  await expect(reviewer.getByText('Aprovado').first()).toBeVisible()
  await expect(reviewer.getByText(/está editando este conteúdo\./)).toHaveCount(0)
  // 'Publicar agora' asks first.
  await reviewer.getByRole('button', { name: 'Publicar agora' }).click()
  await expect(reviewer.getByRole('dialog')).toContainText('O conteúdo entra no ar agora')
  await reviewer.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click()
  await expect(reviewer.getByText('Publicado').first()).toBeVisible()
  const published = await reviewer.request.get(`/api/content/noticias/${id}`)
  expect(published.status()).toBe(200)
  expect((await published.json()).title).toBe('Resolução do CFMV traz novas orientações para a telemedicina')

  // Histórico: the title change between the first and the latest revision.
  await reviewer.getByRole('tab', { name: 'Histórico' }).click()
  const diff = reviewer.getByRole('table', { name: 'Diferenças entre revisões' })
  await expect(diff).toBeVisible()
  await reviewer.getByRole('combobox', { name: 'Comparar a revisão' }).click()
  await reviewer.getByRole('option', { name: /^#1 ·/ }).click()
  await expect(diff.getByRole('row').filter({ hasText: 'Título' })).toContainText('Telemedicina veterinária: novas orientações')
  await reviewer.getByRole('tab', { name: 'Linha do tempo' }).click()
  await expect(reviewer.getByText('Alterações solicitadas · Em revisão → Alterações solicitadas')).toBeVisible()
  await reviewer.getByRole('tab', { name: 'Comentários' }).click()
  await reviewer.getByRole('textbox', { name: 'Novo comentário' }).fill('Publicada, obrigado!')
  await reviewer.getByRole('button', { name: 'Comentar' }).click()
  await expect(reviewer.getByText('Publicada, obrigado!')).toBeVisible()

  // The global audit log: newest first, in pt-BR, filterable by action.
  await reviewer.getByRole('menuitem', { name: 'Auditoria' }).click()
  await expect(reviewer.getByRole('heading', { level: 1, name: 'Auditoria' })).toBeVisible()
  const newest = reviewer.getByRole('row').nth(1)
  await expect(newest).toContainText('Publicado')
  await expect(newest).toContainText('Aprovado → Publicado')
  await expect(newest.getByRole('link')).toHaveAttribute('href', `#/content/noticias/${id}`)
  await reviewer.getByRole('combobox', { name: 'Ação' }).click()
  await reviewer.getByRole('option', { name: 'Alterações solicitadas', exact: true }).click()
  await expect(reviewer).toHaveURL(/request_changes/)
  const rows = reviewer.getByRole('row').filter({ has: reviewer.getByRole('cell') })
  await expect(rows.first()).toContainText('Em revisão → Alterações solicitadas')
  for (const row of await rows.all()) await expect(row).toContainText('Alterações solicitadas')
})

test('the Agenda lists the seeded scheduled news by week', async ({ browser }) => {
  const revisor = await signedIn(browser, REVISOR)
  await revisor.getByRole('menuitem', { name: 'Agenda' }).click()
  await expect(revisor.getByRole('heading', { name: 'Agenda', level: 1 })).toBeVisible()
  await expect(revisor.getByRole('link', { name: 'Congresso de medicina felina abre inscrições com desconto' })).toBeVisible()
  await revisor.getByRole('button', { name: 'Dia' }).click()
  await revisor.getByRole('button', { name: 'Próximo' }).click()
  await expect(revisor.getByRole('link', { name: 'Congresso de medicina felina abre inscrições com desconto' })).toBeVisible()
  await expect(revisor.getByTestId('overdue-card')).toHaveCount(0)
})

test('bulk publishing from the list moves only what the workflow allows and says why the rest stayed', async ({ browser }) => {
  // An approved item, prepared through the API by the super admin.
  const admin = await signedIn(browser, { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' })
  const csrf = (await admin.context().cookies()).find((c) => c.name === 'vc_csrf')?.value ?? ''
  const created = await admin.request.post('/api/admin/content/noticias', {
    headers: { 'X-CSRF-Token': csrf },
    data: { title: 'Boletim aprovado para publicação em lote', summary: 'Resumo', fields: { body: BODY, category: 'mercado' } },
  })
  expect(created.status()).toBe(201)
  let item = await created.json()
  for (const action of ['submit', 'approve']) {
    const res = await admin.request.post(`/api/admin/content/noticias/${item.id}/actions/${action}`, {
      headers: { 'X-CSRF-Token': csrf },
      data: { version: item.version },
    })
    expect(res.status()).toBe(200)
    item = await res.json()
  }

  const revisor = await signedIn(browser, REVISOR)
  await revisor.getByRole('menuitem', { name: 'Notícias' }).click()
  const row = (title: string) => revisor.getByRole('row').filter({ hasText: title })
  await row('Boletim aprovado para publicação em lote').getByRole('checkbox').check()
  await row('Boas práticas de bem-estar no manejo de bovinos de corte').getByRole('checkbox').check()
  await revisor.getByRole('button', { name: 'Publicar agora' }).click()
  // Asked first: nothing moves until the confirmation.
  const confirm = revisor.getByRole('dialog', { name: 'Publicar 2 conteúdos agora?' })
  await expect(confirm).toBeVisible()
  expect((await revisor.request.get(`/api/content/noticias/${item.id}`)).status()).toBe(404)
  await expectNoSeriousA11yViolations(revisor, 'confirmação de publicação em lote')
  await confirm.getByRole('button', { name: 'Publicar agora' }).click()
  // The approved one is published; the draft is refused with the workflow's reason.
  await expect(revisor.getByText(/^1 conteúdo atualizado\. 1 recusado: .+/)).toBeVisible()
  expect((await revisor.request.get(`/api/content/noticias/${item.id}`)).status()).toBe(200)
  expect((await revisor.request.get('/api/content/noticias/bem-estar-bovinos')).status()).toBe(404)
})
