import { expect, test, type Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { signedInUser } from './support/users'

// What a member meets on a phone (390 px) and a desktop (1280 px): a way in
// to news, events and connections from the menu; the bell's panel inside the
// screen; course and video lists that start above the fold; 'Matricular-se'
// on screen from the top of a course page. axe runs on every page visited.

async function fitsTheScreen(page: Page) {
  const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }))
  expect(scroll, 'document as wide as the viewport').toBe(client)
}

async function insideViewport(page: Page, box: { x: number; y: number; width: number; height: number } | null) {
  const size = page.viewportSize()!
  expect(box).not.toBeNull()
  expect(box!.x).toBeGreaterThanOrEqual(0)
  expect(box!.x + box!.width).toBeLessThanOrEqual(size.width)
  expect(box!.y).toBeGreaterThanOrEqual(0)
  expect(box!.y + box!.height).toBeLessThanOrEqual(size.height)
}

for (const { width, height } of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  const phone = width < 1024
  test.describe(`layout e navegação (${width} px)`, () => {
    test.use({ viewport: { width, height } })
    test.setTimeout(240_000)

    test.beforeEach(async ({ context, request }) => {
      await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
      await signedInUser(context, request)
    })

    /** The menu: the desktop sidebar, or the phone's drawer opened from the top bar. */
    async function menu(page: Page) {
      if (phone) {
        await page.getByRole('banner').getByRole('button', { name: 'Alternar menu lateral' }).click()
        return page.getByRole('dialog', { name: 'Menu' }).getByRole('navigation', { name: 'Menu principal' })
      }
      return page.getByRole('complementary', { name: 'Barra lateral' }).getByRole('navigation', { name: 'Menu principal' })
    }

    test('the menu leads to news, events and connections and keeps its entries; the profile links its connections', async ({ page }) => {
      await page.goto('/')
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 30_000 })
      let nav = await menu(page)
      for (const name of ['Início', 'VetClube IA', 'Oportunidades', 'Conteúdos Exclusivos', 'Cursos', 'Desafios', 'Ferramentas', 'Indique e Ganhe']) {
        await expect(nav.getByRole('link', { name, exact: true })).toBeVisible()
      }
      const community = nav.getByRole('list', { name: 'Comunidade' })
      await expect(community.getByRole('link')).toHaveText(['Feed', 'Notícias', 'Eventos', 'Conexões'])
      await expectNoSeriousA11yViolations(page, `menu ${width}`)

      await community.getByRole('link', { name: 'Notícias' }).click()
      await expect(page).toHaveURL(/\/noticias-veterinarias$/)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible({ timeout: 30_000 })
      await fitsTheScreen(page)
      await expectNoSeriousA11yViolations(page, `notícias ${width}`)

      nav = await menu(page)
      await nav.getByRole('list', { name: 'Comunidade' }).getByRole('link', { name: 'Eventos' }).click()
      await expect(page).toHaveURL(/\/eventos$/)
      await expect(page.getByRole('heading', { level: 1, name: 'Eventos' })).toBeVisible()
      // Headings do not skip a level: the page's h1, then each card's h2.
      await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible({ timeout: 30_000 })
      await expect(page.getByRole('heading', { level: 3 })).toHaveCount(0)
      await fitsTheScreen(page)
      if (phone) {
        for (const control of [page.getByRole('banner').getByRole('link', { name: /VetCoins/ }), page.getByRole('banner').getByRole('button', { name: 'Sair' }), page.getByRole('navigation', { name: 'Navegação inferior' })]) {
          await insideViewport(page, await control.boundingBox())
        }
      }
      await expectNoSeriousA11yViolations(page, `eventos ${width}`)

      nav = await menu(page)
      await nav.getByRole('list', { name: 'Comunidade' }).getByRole('link', { name: 'Conexões' }).click()
      await expect(page).toHaveURL(/\/connections$/)
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expectNoSeriousA11yViolations(page, `conexões ${width}`)

      await page.goto('/profile')
      const count = page.getByRole('main').getByRole('link', { name: /^\d+ conex(ão|ões)$/ })
      await expect(count).toBeVisible({ timeout: 30_000 })
      await expectNoSeriousA11yViolations(page, `perfil ${width}`)
      await count.click()
      await expect(page).toHaveURL(/\/connections$/)
    })

    test("the bell's panel opens inside the screen, titled 'Notificações'", async ({ page }) => {
      await page.goto('/')
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 30_000 })
      await page.getByRole('banner').getByRole('button', { name: 'Notificações' }).click()
      const panel = page.getByRole('region', { name: 'Notificações', exact: true })
      await expect(panel.getByRole('heading', { name: 'Notificações' })).toBeVisible()
      await insideViewport(page, await panel.boundingBox())
      await expect(page.getByRole('region', { name: 'Notificações', exact: true })).toHaveCount(1)
      await expectNoSeriousA11yViolations(page, `sino ${width}`)
    })

    test('course and video lists show a result above the fold; filters fold behind Filtros on the phone', async ({ page }) => {
      for (const { path, list, filters } of [
        { path: '/cursos', list: 'Cursos', filters: 'Filtros de cursos' },
        { path: '/conteudos-exclusivos', list: 'Vídeos', filters: 'Filtros de vídeos' },
      ]) {
        await page.goto(path)
        const first = page.getByRole('list', { name: list, exact: true }).getByRole('listitem').first()
        await expect(first).toBeVisible({ timeout: 30_000 })
        const box = (await first.boundingBox())!
        expect(box.y, `${path}: the first result starts above the fold`).toBeLessThan(height - (phone ? 64 : 0))
        const section = page.getByRole('region', { name: filters })
        const toggle = section.getByRole('button', { name: /^Filtros/ })
        const select = section.getByRole('combobox', { name: 'Categoria' })
        if (phone) {
          await expect(toggle).toHaveText('Filtros')
          await expect(select).toBeHidden()
          await toggle.click()
          await expect(toggle).toHaveAttribute('aria-expanded', 'true')
          await expect(select).toBeVisible()
          await select.selectOption({ index: 1 })
          await expect(toggle).toHaveText('Filtros (1)')
          // The statistics take one line.
          const tops = await page.getByRole('region', { name: /^Suas estatísticas/ }).locator('dl > div').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)))
          expect(new Set(tops).size).toBe(1)
        } else {
          await expect(toggle).toBeHidden()
          await expect(select).toBeVisible()
          // Stat labels are read whole, never cut with an ellipsis.
          const cut = await page.getByRole('region', { name: /^Suas estatísticas/ }).locator('dt').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth).length)
          expect(cut).toBe(0)
        }
        await fitsTheScreen(page)
        await expectNoSeriousA11yViolations(page, `${path} ${width}`)
      }
    })

    test("'Matricular-se' is on screen from the top of a course page", async ({ page, context }) => {
      const courses = (await (await context.request.get('/api/cursos')).json()) as { courses: { id: string; is_enrolled?: boolean }[] }
      await page.goto(`/cursos/${courses.courses[0]!.id}`)
      const enrol = page.getByRole('button', { name: 'Matricular-se' })
      await expect(enrol).toBeVisible({ timeout: 30_000 })
      await insideViewport(page, await enrol.boundingBox())
      const box = (await enrol.boundingBox())!
      // Nothing covers it: a tap at its centre reaches it.
      const hit = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? null, { x: box.x + box.width / 2, y: box.y + box.height / 2 })
      expect(hit).toBe('Matricular-se')
      await fitsTheScreen(page)
      await expectNoSeriousA11yViolations(page, `curso ${width}`)
      await enrol.click()
      await expect(page.getByText('Matrícula realizada com sucesso!')).toBeVisible()
    })
  })
}
