import { expect, test, type Locator, type Page } from '@playwright/test'
import { signedInUser } from './support/users'

// Patient safety: a dose on screen always belongs to the inputs on screen, and
// on a phone the result is brought into view above the bottom navigation.
// The calculator is the real `calculadoras` plugin process (bin/plugins).

async function box(locator: Locator) {
  const b = await locator.boundingBox()
  if (!b) throw new Error('element has no box (not rendered)')
  return b
}

/** The part of the viewport no fixed bar covers: below the top bar, above the bottom nav. */
async function clearArea(page: Page) {
  const top = await box(page.getByRole('banner'))
  const nav = await box(page.getByRole('navigation', { name: 'Navegação inferior' }))
  return { top: top.y + top.height, bottom: nav.y }
}

test.describe('calculator result at 390×844', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('a stale dose disappears when an input changes; the result is in view and never under the bottom nav', async ({
    page,
    context,
    request,
  }) => {
    // The floating push prompt (3 s after sign-in, bottom right) would cover
    // the form at phone size; this test is about the result's placement.
    await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
    await signedInUser(context, request)
    await page.goto('/ferramentas/calculadoras')
    const form = page.getByRole('form', { name: 'Dose de medicamento' })
    const peso = form.getByLabel('Peso (kg)')
    const calcular = form.getByRole('button', { name: 'Calcular dose' })
    const result = page.getByRole('region', { name: 'Resultado' })

    // 12 kg × 3,125 mg/kg = 37,5 mg; ÷ 50 mg/mL = 0,75 mL.
    await peso.fill('12')
    await form.getByLabel('Dose (mg/kg)').fill('3,125')
    await form.getByLabel('Concentração (mg/mL)').fill('50')
    await calcular.click()
    await expect(result.getByText('37,5 mg', { exact: true })).toBeVisible()
    await expect(result.getByText('0,750 mL', { exact: true })).toBeVisible()

    // Focus moves to the result's heading and a live region announces it.
    const heading = result.getByRole('heading', { name: 'Resultado' })
    await expect(heading).toBeFocused()
    await expect(page.getByRole('status').filter({ hasText: 'Resultado: ' })).toContainText('37,5 mg')

    // The heading and the first figures are inside the uncovered part of the
    // viewport (the scroll may be smooth, so poll until it settles).
    const firstValue = result.getByText('37,5 mg', { exact: true })
    await expect
      .poll(async () => {
        const area = await clearArea(page)
        const h = await box(heading)
        const v = await box(firstValue)
        return h.y >= area.top && v.y + v.height <= area.bottom
      })
      .toBe(true)

    // Scrolled to the very end, the result's last line still ends above the
    // bottom nav: the page reserves room for it.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
    const reference = result.getByText(/^Referência:/)
    await expect
      .poll(async () => {
        const area = await clearArea(page)
        const r = await box(reference)
        return r.y + r.height <= area.bottom
      })
      .toBe(true)

    // 12 → 30 kg: the 12 kg dose is gone at once, before any new calculation.
    await peso.fill('30')
    await expect(result).toHaveCount(0)
    await expect(page.getByText('37,5 mg', { exact: true })).toHaveCount(0)
    await expect(page.getByText('0,750 mL', { exact: true })).toHaveCount(0)
    // In the result's place, a visible note says why it went away.
    await expect(page.locator('div:text-is("O resultado anterior foi removido porque os dados mudaram. Calcule novamente.")')).toBeVisible()
    await calcular.click()
    await expect(result.getByText('93,8 mg', { exact: true })).toBeVisible()
    await expect(page.getByText('37,5 mg', { exact: true })).toHaveCount(0)

    // Clearing the weight leaves no dose at all, before and after the check.
    await peso.fill('')
    await expect(result).toHaveCount(0)
    await expect(page.getByText('93,8 mg', { exact: true })).toHaveCount(0)
    await calcular.click()
    await expect(form.getByText('Preencha o peso.')).toBeVisible()
    await expect(result).toHaveCount(0)
  })
})
