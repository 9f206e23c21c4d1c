import { expect, test } from '@playwright/test'

test.describe('visitor', () => {
  test('/ redirects to the landing page', async ({ page }) => {
    await page.goto('/')
    await expect(page).toHaveURL(/\/landing$/)
    await expect(page.getByRole('link', { name: /criar conta/i }).first()).toBeVisible()
  })

  test('a guarded route redirects to /login keeping the wanted path', async ({ page }) => {
    await page.goto('/cursos?categoria=cirurgia')
    await expect(page).toHaveURL(/\/login\?redirect=%2Fcursos%3Fcategoria%3Dcirurgia$/)
  })

  test('an unknown path shows the not-found page', async ({ page }) => {
    await page.goto('/isto-nao-existe')
    await expect(page.getByRole('heading', { name: 'Página não encontrada' })).toBeVisible()
  })
})
