import { expect, test, type Page } from '@playwright/test'
import { signInByApi } from './support/users'

// The VetCoins shop on /pontos with the dev seed: the demo member (a trial,
// 1200 seeded VetCoins) redeems a partner voucher and sees its code, in the
// confirmation and in 'Meus resgates'; a Premium-only reward invites to Premium.
const DEMO = { email: 'demo@vetclube.dev', password: 'Consulta#2026' } // dev seed, core/app/seed/seed.go
const VOUCHER = 'Voucher 15% na VetLoja parceira'

async function balance(page: Page): Promise<number> {
  const text = (await page.getByTestId('pontos-total').textContent()) ?? ''
  return Number(text.replace(/\D/g, ''))
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`a member redeems a voucher and sees the code (${viewport.width} px)`, async ({ page, context }) => {
    await page.setViewportSize(viewport)
    await signInByApi(context, DEMO)
    await page.goto('/pontos')
    await expect(page.getByRole('heading', { name: 'VetCoins', level: 1 })).toBeVisible()
    // The balance split by kind; challenge points under the name 'Desafios'.
    for (const label of ['Desafios', 'Cursos', 'Posts', 'Check-in', 'Outros', 'Gastos']) {
      await expect(page.getByRole('group', { name: label, exact: true })).toBeVisible()
    }
    await expect(page.getByTestId('pontos-total')).not.toHaveText('…')
    const before = await balance(page)

    const card = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: VOUCHER }) })
    await expect(card.getByText('80 VetCoins')).toBeVisible()
    await page.getByRole('button', { name: `Resgatar ${VOUCHER}` }).click()
    const confirm = page.getByRole('dialog', { name: 'Confirmar resgate' })
    await expect(confirm).toContainText('80 VetCoins')
    await confirm.getByRole('button', { name: 'Confirmar resgate' }).click()

    const done = page.getByRole('dialog', { name: 'Resgate concluído!' })
    await expect(done).toBeVisible()
    const code = (await done.getByTestId('codigo-resgate').textContent()) ?? ''
    expect(code).toMatch(/^VETLOJA-\d{4}$/)
    await expect(done).toContainText('Como usar')
    await expect(done.getByRole('button', { name: `Copiar código ${code}` })).toBeVisible()
    await done.getByRole('button', { name: 'Concluir' }).click()

    const mine = page.getByRole('list', { name: 'Meus resgates' })
    await expect(mine.getByText(code, { exact: true })).toBeVisible()
    await expect(mine).toContainText(VOUCHER)
    await expect.poll(() => balance(page)).toBe(before - 80)
    await expect(page.getByRole('list', { name: 'Histórico de VetCoins' }).getByText('Resgate de recompensa').first()).toBeVisible()

    // No horizontal overflow at this width.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(overflow).toBeLessThanOrEqual(0)
  })
}

test('a Premium-only reward invites a trial member to Premium', async ({ page, context }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await signInByApi(context, DEMO)
  await page.goto('/pontos')
  await page.getByRole('button', { name: 'Resgatar Moldura Esmeralda (Premium)' }).click()
  const invite = page.getByRole('dialog', { name: 'Recompensa exclusiva Premium' })
  await expect(invite).toContainText('exclusiva para membros Premium')
  await expect(invite.getByRole('link', { name: 'Ver Planos' })).toHaveAttribute('href', '/pricing')
})
