import { expect, test } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { signedInUser } from './support/users'

// Search finds partial words and ignores accents (core/search): a vet who
// types the start of a word finds the dev seed's course and news, on a phone
// and on a desktop. A news page also carries its own link preview (og: tags).

const COURSE = 'Dermatologia Veterinária na Rotina Clínica' // dev seed, core/app/seed/courses.go
const NEWS = /Campanha de vacinação antirrábica/ // dev seed, core/app/seed/news.go

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test.describe(`search at ${viewport.width} px`, () => {
    test.use({ viewport })

    test("'dermato' finds the dermatology course; 'vacina' finds the vaccination news", async ({ page, context, request }) => {
      await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
      await signedInUser(context, request)

      await page.goto('/cursos')
      await expect(page.getByRole('heading', { level: 1, name: 'Cursos' })).toBeVisible()
      await page.getByLabel('Buscar cursos').fill('dermato')
      await expect(page).toHaveURL(/[?&]busca=dermato/)
      const courses = page.getByRole('list', { name: 'Cursos' })
      await expect(courses.getByRole('article', { name: COURSE })).toBeVisible()
      await expect(courses.getByRole('article')).toHaveCount(1)
      await expectNoSeriousA11yViolations(page, `busca de cursos (${viewport.width} px)`)

      // Without the accent and only the start of the word.
      await page.getByLabel('Buscar cursos').fill('rotina clin')
      await expect(page).toHaveURL(/[?&]busca=rotina/)
      await expect(courses.getByRole('article', { name: COURSE })).toBeVisible()

      await page.goto('/noticias-veterinarias')
      await page.getByLabel('Buscar notícias').fill('vacina')
      const news = page.getByRole('link', { name: NEWS }).first()
      await expect(news).toBeVisible()
      await expectNoSeriousA11yViolations(page, `busca de notícias (${viewport.width} px)`)

      // The news page's HTML names the news for link previews (no script runs there).
      const href = (await news.getAttribute('href'))!
      const html = await (await request.get(href)).text()
      expect(html).toMatch(/<meta property="og:title" content="Campanha de vacinação antirrábica[^"]*" \/>/)
      expect(html).toContain('<meta property="og:description" content="')
      expect(html).toMatch(/<title>Campanha de vacinação antirrábica[^<]* · VetClube<\/title>/)
    })
  })
}
