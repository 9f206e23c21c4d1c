import { expect, test } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { signedInUser } from './support/users'

// "A dose calculator must work in a barn with no signal": the tool's own Go
// handler, built to WebAssembly (bin/plugins/<id>.offline.wasm), answers on
// the device when the network is gone, with the same numbers as the server.
test.describe('ferramentas sem conexão', () => {
  test('a dose computed offline shows the same numbers as the server, and the same refusals', async ({ page, context, request }) => {
    await signedInUser(context, request)
    await page.goto('/ferramentas/calculadoras')
    const dose = page.getByRole('form', { name: 'Dose de medicamento' })
    const result = page.getByRole('region', { name: 'Resultado' })
    const note = page.getByText('Calculado neste aparelho, sem conexão.')

    // Online: the server answers. 4,5 kg cat, 0,1 mg/kg at 1,5 mg/mL = 0,45 mg = 0,3 mL.
    await dose.getByLabel('Espécie').selectOption('gato')
    await dose.getByLabel('Peso (kg)').fill('4,5')
    await dose.getByLabel('Dose (mg/kg)').fill('0,1')
    await dose.getByLabel('Concentração (mg/mL)').fill('1,5')
    await dose.getByRole('button', { name: 'Calcular dose' }).click()
    await expect(result.getByText(/^0,45(0)? mg$/)).toBeVisible()
    await expect(note).toBeHidden()
    const online = await result.locator('dd').allTextContents()
    const onlineExplanation = await result.getByText(/ mg\/kg × /).textContent()

    // The page fetched the offline build while online.
    await expect
      .poll(() =>
        page.evaluate(() =>
          ['/api/tools/calculadoras/offline.wasm', '/api/tools/offline/wasm_exec.js'].every((path) =>
            performance.getEntriesByType('resource').some((e) => new URL(e.name).pathname === path && (e as PerformanceResourceTiming).responseEnd > 0),
          ),
        ),
      )
      .toBe(true)

    await context.setOffline(true)
    try {
      // Any edit withdraws the result; the same inputs again are computed here.
      await dose.getByLabel('Peso (kg)').fill('4')
      await dose.getByLabel('Peso (kg)').fill('4,5')
      await dose.getByRole('button', { name: 'Calcular dose' }).click()
      await expect(note).toBeVisible()
      expect(await result.locator('dd').allTextContents()).toEqual(online)
      expect(await result.getByText(/ mg\/kg × /).textContent()).toBe(onlineExplanation)

      // A rule only the handler knows (a cat's weight range) is refused
      // offline with the server's own pt-BR message.
      await dose.getByLabel('Peso (kg)').fill('25')
      await dose.getByRole('button', { name: 'Calcular dose' }).click()
      await expect(dose.getByText(/^O peso deve estar entre .* kg para gatos\.$/)).toBeVisible()
      await expect(result).toBeHidden()
    } finally {
      await context.setOffline(false)
    }
  })
})

// The installed app opened cold in a barn: the member used the app once while
// online (only its home), then with no signal closes it, opens it again at /,
// goes to Ferramentas → Calculadoras and computes a dose.
for (const { width, height } of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test.describe(`calculadoras abertas sem conexão, a frio (${width} px)`, () => {
    test.use({ viewport: { width, height } })
    // A cold start, two offline builds and three axe runs on a shared machine.
    test.setTimeout(180_000)

    test('a member who opened only the home once computes a dose after a cold start with no signal', async ({ page, context, request }) => {
      await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
      await signedInUser(context, request)
      await page.goto('/')
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 30_000 })
      await page.evaluate(async () => void (await navigator.serviceWorker.ready))
      // A few seconds in, the worker keeps the tools list and the calculators' offline build.
      await expect
        .poll(
          () =>
            page.evaluate(async () => {
              const list = await (await caches.open('vetclube-tools-list')).match('/api/tools')
              const builds = await caches.open('vetclube-tools-offline')
              return Boolean(list && (await builds.match('/api/tools/calculadoras/offline.wasm')) && (await builds.match('/api/tools/offline/wasm_exec.js')))
            }),
          { timeout: 30_000 },
        )
        .toBe(true)
      await expectNoSeriousA11yViolations(page, `início ${width}`)

      await context.setOffline(true)
      try {
        await page.close()
        const app = await context.newPage()
        await app.goto('/')
        await expect(app.getByText('Você está offline. Algumas funcionalidades podem não estar disponíveis.')).toBeVisible({ timeout: 30_000 })
        await expect(app.getByRole('heading', { level: 1 }).first()).toBeVisible({ timeout: 30_000 })
        if (width < 1024) {
          await app.getByRole('banner').getByRole('button', { name: 'Alternar menu lateral' }).click()
          await app.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Ferramentas' }).click()
        } else {
          await app.getByRole('navigation', { name: 'Menu principal' }).getByRole('link', { name: 'Ferramentas' }).click()
        }
        await expect(app.getByRole('heading', { level: 1, name: 'Ferramentas' })).toBeVisible({ timeout: 20_000 })
        await expect(app.getByRole('alert')).toHaveCount(0)
        await expectNoSeriousA11yViolations(app, `ferramentas sem conexão ${width}`)
        await app.getByRole('main').getByRole('link', { name: /Calculadoras Veterinárias/ }).click()
        await expect(app).toHaveURL(/\/ferramentas\/calculadoras$/)

        const dose = app.getByRole('form', { name: 'Dose de medicamento' })
        await dose.getByLabel('Espécie').selectOption('gato')
        await dose.getByLabel('Peso (kg)').fill('4,5')
        await dose.getByLabel('Dose (mg/kg)').fill('0,1')
        await dose.getByLabel('Concentração (mg/mL)').fill('1,5')
        await dose.getByRole('button', { name: 'Calcular dose' }).click()
        const result = app.getByRole('region', { name: 'Resultado' })
        await expect(result.getByText(/^0,45(0)? mg$/)).toBeVisible({ timeout: 30_000 })
        await expect(result.getByText(/^0,30* mL$/)).toBeVisible()
        await expect(app.getByText('Calculado neste aparelho, sem conexão.')).toBeVisible()
        await expectNoSeriousA11yViolations(app, `calculadoras sem conexão ${width}`)
      } finally {
        await context.setOffline(false)
      }
    })
  })
}

test.describe('ferramentas guardadas para uso sem conexão', () => {
  test('a sign-out deletes the kept tools list', async ({ page, context, request }) => {
    await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
    await signedInUser(context, request)
    await page.goto('/ferramentas')
    await expect(page.getByRole('main').getByRole('link', { name: /Calculadoras Veterinárias/ })).toBeVisible({ timeout: 30_000 })
    const kept = () => page.evaluate(async () => Boolean(await (await caches.open('vetclube-tools-list')).match('/api/tools')))
    await expect.poll(kept).toBe(true)
    await page.getByRole('banner').getByRole('button', { name: 'Sair' }).click()
    await expect(page).toHaveURL(/\/login/)
    await expect.poll(kept).toBe(false)
  })
})
