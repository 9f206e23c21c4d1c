import { expect, test, type Browser, type BrowserContext } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { apiPost, signedInUser, signInByApi } from './support/users'

// Dev seed (core/app/seed): the super admin takes every workflow step; the
// demo recruiter is an account with the recrutador role.
const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' }
const RECRUITER = { email: 'recrutadora@vetclube.dev', password: 'Vagas#Recruta26' }

async function csrf(context: BrowserContext): Promise<Record<string, string>> {
  const c = (await context.cookies()).find((k) => k.name === 'vc_csrf')
  return c ? { 'X-CSRF-Token': c.value } : {}
}

/** Publishes a job in state uf through the backoffice API and the real workflow, and assigns the demo recruiter. */
async function publishJob(browser: Browser, slug: string, title: string, uf: string) {
  const admin = await browser.newContext()
  await signInByApi(admin, SUPER_ADMIN)
  const day = new Date(Date.now() + 20 * 24 * 3600 * 1000)
  const closes = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(day)
  const created = await apiPost(admin, '/api/admin/content/vagas', {
    slug,
    title,
    summary: 'Atendimento clínico em clínica com internação.',
    fields: {
      organization: 'Clínica Boa Vista',
      city: 'Cidade Teste',
      state: uf,
      workplace: 'presencial',
      contract: 'clt',
      area: 'pequenos_animais',
      specialty: 'Clínica médica',
      salary_min: 9500,
      salary_max: 12000,
      requirements: 'CRMV ativo e experiência em clínica de pequenos animais.',
      crmv_required: true,
      apply_kind: 'vetclube',
      closes_at: closes,
    },
  })
  expect(created.status(), await created.text()).toBe(201)
  let item = await created.json()
  for (const action of ['submit', 'approve', 'publish']) {
    const res = await admin.request.post(`/api/admin/content/vagas/${item.id}/actions/${action}`, {
      data: { version: item.version },
      headers: await csrf(admin),
    })
    expect(res.status(), await res.text()).toBe(200)
    item = await res.json()
  }
  const assigned = await apiPost(admin, `/api/admin/vagas/${item.id}/recrutadores`, { email: RECRUITER.email })
  expect(assigned.status(), await assigned.text()).toBe(200)
  await admin.close()
  return item.id as string
}

/** A small valid PDF (header, catalogue, trailer). */
const CV = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
)

for (const { viewport, uf } of [
  { viewport: { width: 390, height: 844 }, uf: 'TO' },
  { viewport: { width: 1280, height: 900 }, uf: 'RR' },
]) {
  test.describe(`Oportunidades at ${viewport.width} px`, () => {
    test.use({ viewport })

    test('a member filters by state, saves the job, applies with a CV; the recruiter moves it to entrevista and the member is told', async ({
      page,
      context,
      request,
      browser,
    }) => {
      test.slow()
      const slug = `clinico-${uf.toLowerCase()}-${Date.now()}`
      const title = `Clínico geral ${uf} ${Date.now()}`
      const jobId = await publishJob(browser, slug, title, uf)
      await signedInUser(context, request)

      await page.goto('/oportunidades')
      await expect(page.getByRole('heading', { name: 'Oportunidades', level: 1 })).toBeVisible()
      await page.getByLabel('Estado').selectOption(uf)
      await expect(page.getByRole('heading', { name: '1 vaga aberta' })).toBeVisible()
      const card = page.getByTestId('job-card').filter({ has: page.getByRole('link', { name: title }) })
      await expect(card).toContainText('Cidade Teste/' + uf)
      await expect(card).toContainText('R$')
      await expectNoSeriousA11yViolations(page, `oportunidades (${viewport.width} px)`)
      await card.getByRole('link', { name: title }).click()

      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible()
      await page.getByRole('button', { name: 'Salvar vaga' }).click()
      await expect(page.getByRole('button', { name: 'Salva' })).toHaveAttribute('aria-pressed', 'true')
      await page.getByLabel('Mensagem (opcional)').fill('Tenho 4 anos de clínica de pequenos animais.')
      await page.getByLabel('Currículo em PDF (opcional, até 10 MB)').setInputFiles({ name: 'curriculo.pdf', mimeType: 'application/pdf', buffer: CV })
      await expectNoSeriousA11yViolations(page, `vaga (${viewport.width} px)`)
      await page.getByRole('button', { name: 'Enviar candidatura' }).click()
      await expect(page.getByRole('heading', { name: 'Você se candidatou' })).toBeVisible()
      await expect(page.getByRole('status').filter({ hasText: 'Você se candidatou' })).toContainText('Recebida')
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)
      expect(overflow).toBe(false)

      // The saved job is listed on /oportunidades.
      await page.goto('/oportunidades')
      await expect(page.getByRole('region', { name: 'Vagas salvas' }).getByRole('link', { name: new RegExp(title) })).toBeVisible()

      // The recruiter (assigned to this job) sees the application with the CV in the backoffice and moves it to 'entrevista'.
      const recruiter = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      await signInByApi(recruiter, RECRUITER)
      const list = await recruiter.request.get(`/api/admin/vagas/${jobId}/candidaturas`)
      expect(list.status(), await list.text()).toBe(200)
      const { applications } = await list.json()
      expect(applications).toHaveLength(1)
      const cv = await recruiter.request.get(`/api/vagas/candidaturas/${applications[0].id}/curriculo`)
      expect(cv.status()).toBe(200)
      expect((await cv.body()).subarray(0, 5).toString()).toBe('%PDF-')
      const bo = await recruiter.newPage()
      await bo.goto('/backoffice/#/vagas-candidaturas')
      await bo.getByRole('list', { name: 'Vagas' }).getByRole('button', { name: new RegExp(title) }).click()
      const application = bo.getByTestId('job-application')
      await expect(application).toHaveCount(1)
      await expect(application).toContainText('Tenho 4 anos de clínica de pequenos animais.')
      await expect(application.getByRole('link', { name: /Currículo/ })).toBeVisible()
      await application.getByRole('combobox').click()
      await bo.getByRole('option', { name: 'Entrevista' }).click()
      await application.getByLabel('Observação para o candidato').fill('Entrevista na quinta-feira às 14h.')
      await application.getByRole('button', { name: 'Salvar status' }).click()
      await expect(application.getByText('Entrevista', { exact: true }).first()).toBeVisible()
      await expect(application).toContainText('Entrevista na quinta-feira às 14h.')
      await recruiter.close()

      // The member is told (the bell) and sees the new status on 'Minhas candidaturas'.
      await page.goto('/oportunidades/candidaturas')
      const app = page.getByTestId('application').filter({ has: page.getByRole('link', { name: title }) })
      await expect(app).toContainText('Entrevista')
      await expect(app).toContainText('Entrevista na quinta-feira às 14h.')
      await page.getByRole('banner').getByRole('button', { name: /^Notificações/ }).click()
      await expect(page.getByRole('region', { name: 'Notificações' })).toContainText('Candidatura atualizada')
      await expectNoSeriousA11yViolations(page, `minhas candidaturas (${viewport.width} px)`)
    })
  })
}
