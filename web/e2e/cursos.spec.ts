import { expect, test } from '@playwright/test'
import { published } from './support/content'
import { signedInUser, signInByApi } from './support/users'

// Courses end to end on the real server: an editor's course, published
// through the workflow; a new member browses, filters, enrols, completes
// every lesson, gets the completion screen and 250 VetCoins, and the
// certificate is verifiable signed out; the curriculum is reordered in the
// backoffice and learners see it once published.

const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' } // dev seed (core/app/seed.go)

test('a new member filters, enrols, completes every lesson and verifies the certificate; a reordered curriculum shows once published', async ({
  browser,
}) => {
  test.setTimeout(240_000)
  const stamp = Date.now().toString(36)
  const CATEGORY = `Fisioterapia ${stamp}`
  const COURSE = `Reabilitação pós-operatória em cães ${stamp}`
  const admin = await browser.newContext()
  await signInByApi(admin, SUPER_ADMIN)
  const category = await published(admin, 'cursos-categorias', CATEGORY, { display_order: 50 })
  const instructor = await published(admin, 'cursos-instrutores', 'Dra. Paula Serra', { professional_title: 'Fisiatra veterinária' })
  const lessonA = await published(admin, 'cursos-aulas', 'Avaliação funcional', {
    body: 'Como medir amplitude de movimento e escore de claudicação.',
    duration: '12:00',
    is_free: true,
  })
  const lessonB = await published(admin, 'cursos-aulas', 'Exercícios terapêuticos', {
    body: 'Exercícios de propriocepção e fortalecimento nas primeiras semanas.',
    duration: '18:00',
  })
  const module = await published(admin, 'cursos-modulos', 'Primeiras semanas', { lessons: [lessonA, lessonB] })
  const course = await published(admin, 'cursos', COURSE, {
    description: 'Protocolos de reabilitação para cães após cirurgias ortopédicas e neurológicas, do primeiro dia à alta.',
    category,
    instructor,
    level: 'Intermediário',
    duration: '1h',
    modules: [module],
  })

  const learner = await browser.newContext()
  await learner.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
  await signedInUser(learner, learner.request, { firstName: 'Rita', lastName: 'Farias' })
  const page = await learner.newPage()
  try {
    // Browse and filter.
    await page.goto('/cursos')
    await expect(page.getByRole('heading', { level: 1, name: 'Cursos' })).toBeVisible()
    await page.getByLabel('Categoria').selectOption({ label: CATEGORY })
    await expect(page).toHaveURL(/categoria=/)
    const list = page.getByRole('list', { name: 'Cursos' })
    await expect(list.getByRole('article')).toHaveCount(1)
    await expect(list.getByRole('article', { name: COURSE })).toBeVisible()
    await page.getByLabel('Buscar cursos').fill('reabilitacao')
    // The search reaches the URL once typing settles; a click before that
    // would be undone by the list's own URL update.
    await expect(page).toHaveURL(/reabilitacao/)
    await expect(list.getByRole('article', { name: COURSE })).toBeVisible()
    await list.getByRole('link', { name: COURSE }).click()

    // Enrol: +50 VetCoins.
    await expect(page.getByRole('heading', { level: 1, name: COURSE })).toBeVisible()
    await page.getByRole('button', { name: 'Matricular-se' }).click()
    await expect(page.getByText('Matrícula realizada com sucesso!')).toBeVisible()
    await expect(page.getByRole('link', { name: '50 VetCoins' })).toBeVisible()

    // Every lesson, in order, through 'Continuar'.
    await page.getByRole('link', { name: 'Continuar' }).click()
    await expect(page).toHaveURL(new RegExp(`/cursos/[^/]+/aula/${lessonA}$`))
    await page.getByRole('button', { name: 'Marcar como concluída' }).click()
    await expect(page.getByRole('button', { name: 'Aula concluída' })).toBeDisabled()
    await page.getByRole('navigation', { name: 'Navegação entre aulas' }).getByRole('link', { name: /Próxima aula/ }).click()
    await expect(page).toHaveURL(new RegExp(`/aula/${lessonB}$`))
    await page.getByRole('button', { name: 'Marcar como concluída' }).click()

    // The completion screen, +200 VetCoins (250 in all), the certificate.
    const done = page.getByRole('dialog', { name: 'Parabéns! Você concluiu o curso!' })
    await expect(done).toBeVisible()
    await expect(done).toContainText('+200 VetCoins')
    await expect(page.getByRole('link', { name: '250 VetCoins' })).toBeVisible()
    await done.getByRole('link', { name: 'Ver certificado' }).click()
    const certificate = page.getByRole('article', { name: 'Certificado de conclusão' })
    await expect(certificate).toContainText('Rita Farias')
    await expect(certificate).toContainText(COURSE)
    const verify = await page.getByRole('link', { name: 'Página de verificação' }).getAttribute('href')
    expect(verify).toMatch(/^(https?:\/\/[^/]+)?\/certificados\/[A-Za-z0-9]+$/)

    await page.goto(`/cursos/${course}`)
    await expect(page.getByRole('progressbar', { name: 'Progresso no curso' })).toHaveAttribute('aria-valuenow', '100')

    // Signed out, anyone can check it.
    const visitor = await browser.newContext()
    try {
      const v = await visitor.newPage()
      await v.goto(new URL(verify!, page.url()).pathname)
      await expect(v.getByRole('heading', { name: 'Verificação de certificado' })).toBeVisible()
      await expect(v.getByText('Certificado válido')).toBeVisible()
      await expect(v.getByText('Rita Farias')).toBeVisible()
    } finally {
      await visitor.close()
    }

    // The editor puts 'Exercícios terapêuticos' first in the backoffice and publishes the module.
    const bo = await admin.newPage()
    await bo.goto(`/backoffice/#/content/cursos/${course}/gerenciar`)
    await expect(bo.getByRole('heading', { level: 1, name: `Gerenciar conteúdo: ${COURSE}` })).toBeVisible({ timeout: 30_000 })
    await bo.getByRole('button', { name: 'Mover «Exercícios terapêuticos» para cima' }).click()
    await bo.getByRole('button', { name: 'Salvar ordem' }).click()
    const moduleSection = bo.getByRole('region', { name: 'Módulo: Primeiras semanas' })
    await expect(moduleSection).toBeVisible()
    // Learners still see the published order until the module is published again.
    const lessons = page.getByRole('list', { name: 'Aulas do módulo Primeiras semanas' })
    const openModule = async () => {
      const toggle = page.getByRole('button', { name: /Módulo 1: Primeiras semanas/ })
      await expect(toggle).toBeVisible()
      if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
    }
    await page.reload()
    await openModule()
    await expect(lessons.getByRole('listitem').first()).toContainText('Avaliação funcional')
    for (const action of ['Enviar para revisão', 'Aprovar', 'Publicar agora']) {
      await moduleSection.getByRole('button', { name: action }).click()
      // Publishing now asks first.
      if (action === 'Publicar agora') await bo.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click()
    }
    await expect(moduleSection).toBeHidden({ timeout: 15_000 })
    await page.reload()
    await openModule()
    await expect(lessons.getByRole('listitem').first()).toContainText('Exercícios terapêuticos')
  } finally {
    await learner.close()
    await admin.close()
  }
})
