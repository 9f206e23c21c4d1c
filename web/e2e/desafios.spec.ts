import { expect, test } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { published } from './support/content'
import { apiPost, signInByApi, signedInUser } from './support/users'

// Dev seed (core/app/seed.go): the super admin may take every workflow step.
const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' }

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`a member completes a clinical-case challenge and sees its VetCoins on /pontos (${viewport.width} px)`, async ({ browser }) => {
    test.slow()
    const admin = await browser.newContext()
    await signInByApi(admin, SUPER_ADMIN)
    const title = `Caso clínico e2e ${viewport.width} ${Date.now()}`
    const now = Date.now()
    await published(admin, 'desafios', title, {
      description: 'Um caso clínico para o teste de ponta a ponta, com três perguntas.',
      kind: 'caso_clinico',
      starts_at: new Date(now - 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      ends_at: new Date(now + 2 * 24 * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      points: 75,
      difficulty: 'medio',
      specialty: 'cardiologia',
      history: 'Cadela SRD, 10 anos, tosse noturna há duas semanas.',
      exam_findings: 'Sopro sistólico em foco mitral; aumento de átrio esquerdo na radiografia.',
      explanation: 'Doença mixomatosa da valva mitral em estágio C: diurético e pimobendan.',
      q1_text: 'Qual o diagnóstico mais provável?',
      q1_options: 'Doença mixomatosa da valva mitral\nCardiomiopatia dilatada',
      q1_correct: 'A',
      q1_explanation: 'Cão pequeno e idoso com sopro mitral.',
      q2_text: 'Qual o estágio ACVIM?',
      q2_options: 'B1\nC',
      q2_correct: 'B',
      q3_text: 'Qual fármaco associar ao diurético?',
      q3_options: 'Atenolol\nPimobendan',
      q3_correct: 'B',
    })
    await admin.close()

    const member = await browser.newContext({ viewport })
    await member.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
    await signedInUser(member, member.request)
    const page = await member.newPage()
    await page.goto('/desafios')
    await expect(page.getByRole('heading', { name: 'Desafios', level: 1 })).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Ranking da semana' })).toBeVisible()
    await page.getByLabel('Especialidade').selectOption('cardiologia')
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: title }) })
    await expect(card.getByText('Não iniciado')).toBeVisible()
    await card.getByRole('link', { name: title }).click()

    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible()
    await expect(page.getByText('Cadela SRD, 10 anos')).toBeVisible()
    await expect(page.getByText('Discussão do caso')).toHaveCount(0)
    const choose = async (n: number, option: string) => {
      await page.getByRole('group', { name: `Pergunta ${n}` }).getByRole('radio', { name: option }).check()
      await expect(page.getByRole('status').filter({ hasText: 'Resposta salva' })).toBeVisible()
    }
    await choose(1, 'A) Doença mixomatosa da valva mitral')
    // Saved as the member goes: a reload keeps the answer.
    await page.reload()
    await expect(page.getByRole('group', { name: 'Pergunta 1' }).getByRole('radio', { name: 'A) Doença mixomatosa da valva mitral' })).toBeChecked()
    await expect(page.getByRole('button', { name: 'Enviar respostas' })).toBeDisabled()
    await choose(2, 'B) C')
    await choose(3, 'B) Pimobendan')
    await expectNoSeriousA11yViolations(page, 'página do desafio')
    await page.getByRole('button', { name: 'Enviar respostas' }).click()
    await expect(page.getByRole('heading', { name: 'Resultado: 3 de 3 certas' })).toBeVisible()
    await expect(page.getByText('Você ganhou 75 VetCoins neste desafio.')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Discussão do caso' })).toBeVisible()
    await expect(page.getByText('Cão pequeno e idoso com sopro mitral.')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Enviar respostas' })).toHaveCount(0)

    // /pontos: the balance split by kind shows the challenge points under 'Desafios'.
    await page.goto('/pontos')
    await expect(page.getByRole('group', { name: 'Desafios', exact: true }).locator('dd')).toHaveText('75')

    // Back on the list: the card says the challenge is done; the ranking lists the member.
    await page.goto('/desafios')
    await expect(page.getByText('Concluído: 3 de 3 certas · 75 VetCoins').first()).toBeVisible()
    await expect(page.getByRole('list', { name: 'Ranking geral' }).getByText('(você)')).toBeVisible()
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    await member.close()
  })
}

test('a member joins a study streak, completes a course lesson and then the challenge (390 px)', async ({ browser }) => {
  test.slow()
  const stamp = Date.now().toString(36)
  const admin = await browser.newContext()
  await signInByApi(admin, SUPER_ADMIN)
  const lesson = await published(admin, 'cursos-aulas', `Aula de triagem ${stamp}`, {
    body: 'Como classificar a urgência do paciente já na recepção.',
    duration: '08:00',
    is_free: true,
  })
  const module = await published(admin, 'cursos-modulos', `Triagem ${stamp}`, { lessons: [lesson] })
  const category = await published(admin, 'cursos-categorias', `Emergência ${stamp}`, { display_order: 60 })
  const instructor = await published(admin, 'cursos-instrutores', 'Dra. Lia Campos', { professional_title: 'Intensivista veterinária' })
  const course = await published(admin, 'cursos', `Triagem rápida ${stamp}`, {
    description: 'Um curso curto sobre triagem na recepção da clínica, para o teste de ponta a ponta.',
    category,
    instructor,
    level: 'Iniciante',
    duration: '8min',
    modules: [module],
  })
  const title = `Sequência de estudos e2e ${stamp}`
  const now = Date.now()
  await published(admin, 'desafios', title, {
    description: 'Conclua uma aula de qualquer curso durante o desafio.',
    kind: 'estudos',
    lessons_goal: 1,
    starts_at: new Date(now - 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    ends_at: new Date(now + 2 * 24 * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    points: 40,
    difficulty: 'facil',
    specialty: 'emergencias',
  })
  await admin.close()

  const member = await browser.newContext({ viewport: { width: 390, height: 844 } })
  await member.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
  await signedInUser(member, member.request)
  const page = await member.newPage()
  await page.goto('/desafios')
  await page.getByRole('listitem').filter({ has: page.getByRole('link', { name: title }) }).getByRole('link', { name: title }).click()
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible()
  await expect(page.getByText('Sequência de estudos').first()).toBeVisible()
  await page.getByRole('button', { name: 'Participar' }).click()
  await expect(page.getByRole('progressbar', { name: 'Aulas concluídas' })).toHaveAttribute('aria-valuenow', '0')
  await expect(page.getByRole('button', { name: 'Concluir desafio' })).toBeDisabled()
  await expect(page.getByText('Falta 1 aula.', { exact: false })).toBeVisible()
  await expectNoSeriousA11yViolations(page, 'sequência de estudos')

  // A lesson completed in the course counts.
  expect((await apiPost(member, `/api/cursos/${course}/matricula`, {})).ok()).toBeTruthy()
  expect((await apiPost(member, `/api/cursos/${course}/aulas/${lesson}/concluir`, {})).ok()).toBeTruthy()
  await page.reload()
  await expect(page.getByRole('progressbar', { name: 'Aulas concluídas' })).toHaveAttribute('aria-valuenow', '1')
  await page.getByRole('button', { name: 'Concluir desafio' }).click()
  await expect(page.getByRole('heading', { name: 'Desafio concluído: 1 aula' })).toBeVisible()
  await expect(page.getByText('Você ganhou 40 VetCoins neste desafio.')).toBeVisible()
  await page.goto('/desafios')
  await expect(page.getByText('Concluído: 1 aula · 40 VetCoins').first()).toBeVisible()
  await member.close()
})
