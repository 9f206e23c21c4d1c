import { expect, test } from '@playwright/test'
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
