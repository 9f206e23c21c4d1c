import { expect, test, type BrowserContext } from '@playwright/test'
import { finishTwoStep } from './support/twoStep'

// Dev seed (core/app/seed.go).
const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' }
const DEMO = { email: 'demo@vetclube.dev', password: 'Consulta#2026' }

async function post(context: BrowserContext, path: string, data: unknown) {
  if (!(await context.cookies()).some((c) => c.name === 'vc_csrf')) await context.request.get('/api/auth/session')
  const csrf = (await context.cookies()).find((c) => c.name === 'vc_csrf')?.value ?? ''
  return context.request.post(path, { data, headers: { 'X-CSRF-Token': csrf } })
}

// A member asks VetClube IA (the demonstration server) and reports the
// answer; the super admin's 'VetClube IA' page shows the day's use, the
// member, the cited source and the report with its conversation.
test('the backoffice shows VetClube IA usage, cited sources and reported answers', async ({ browser }) => {
  const member = await browser.newContext()
  expect((await post(member, '/api/auth/login', DEMO)).ok()).toBe(true)
  expect((await post(member, '/api/ai/disclaimer', {})).ok()).toBe(true)
  const conv = (await (await post(member, '/api/ai/conversations', {})).json()) as { id: string }
  const asked = await post(member, `/api/ai/conversations/${conv.id}/messages`, { content: 'Quais os protocolos de analgesia no pós-operatório ortopédico de cães?' })
  expect(asked.status()).toBe(200)
  const done = (await asked.text()).split('event: done\ndata: ')[1]!.split('\n')[0]!
  const answer = JSON.parse(done) as { id: string }
  expect((await post(member, `/api/ai/messages/${answer.id}/report`, { reason: 'Faltou citar a escala de dor' })).ok()).toBe(true)
  await member.close()

  const page = await browser.newPage()
  await page.goto('/backoffice/')
  await page.getByRole('textbox', { name: 'Email' }).fill(SUPER_ADMIN.email)
  await page.getByRole('textbox', { name: 'Senha' }).fill(SUPER_ADMIN.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await finishTwoStep(page, SUPER_ADMIN.email)
  await page.getByRole('menuitem', { name: 'VetClube IA' }).click()
  await expect(page).toHaveURL(/#\/ia$/)
  await expect(page.getByRole('table', { name: 'Uso por dia' }).getByRole('row')).not.toHaveCount(1)
  await expect(page.getByRole('table', { name: 'Uso por membro' })).toContainText(DEMO.email)
  await expect(page.getByRole('table', { name: 'Fontes mais citadas' })).toContainText('analgesia')
  const reports = page.getByRole('table', { name: 'Respostas reportadas' })
  await expect(reports).toContainText('Faltou citar a escala de dor')
  await expect(reports).toContainText('Pergunta: Quais os protocolos de analgesia no pós-operatório ortopédico de cães?')
})
