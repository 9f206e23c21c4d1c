import { expect, test, type Page } from '@playwright/test'
import { signedInUser } from './support/users'

// Simulado Vet and Quiz de Área are one real plugin process over the question
// bank the development seed publishes (core/app/seed/questions.go).

async function challengePoints(page: Page): Promise<number> {
  const res = await page.request.get('/api/points/balance')
  expect(res.ok()).toBeTruthy()
  return ((await res.json()) as { challenge_points: number }).challenge_points
}

test.describe('simulado vet', () => {
  test('a 10-question simulado resumed after a reload, submitted, its result and history, VetCoins once (390 px)', async ({ page, context, request }) => {
    await page.setViewportSize({ width: 390, height: 844 })
    await signedInUser(context, request)
    await page.goto('/ferramentas/simulado-vet')
    await expect(page.getByRole('heading', { name: 'Simulado Vet', level: 1 })).toBeVisible()
    await page.getByRole('checkbox', { name: /Cardiologia/ }).check()
    await expect(page.getByRole('radio', { name: '10 questões' })).toBeChecked()
    await page.getByRole('button', { name: 'Começar simulado' }).click()
    await expect(page).toHaveURL(/\/ferramentas\/simulado-vet\/quiz$/)
    await expect(page.getByRole('timer', { name: 'Tempo restante' })).toHaveText(/1[45]:\d\d/)

    // Five answers and one review mark, each saved on the server as chosen.
    for (let i = 1; i <= 5; i++) {
      const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes(`/answers/${i}`))
      await page.getByRole('radiogroup').getByRole('radio').first().click()
      await saved
      await page.getByRole('button', { name: 'Próxima' }).click()
    }
    const marked = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/answers/6'))
    await page.getByRole('button', { name: 'Marcar para revisar' }).click()
    await marked

    // A reload (or a lost signal) loses nothing: the open simulado resumes.
    await page.reload()
    await expect(page.getByText('5 de 10 respondidas · 1 para revisar')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Questão 6, marcada para revisar' })).toBeVisible()
    await page.getByRole('button', { name: /^Questão 10/ }).click()
    const last = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/answers/10'))
    await page.getByRole('radiogroup').getByRole('radio').nth(1).click()
    await last

    page.once('dialog', (d) => void d.accept())
    await page.getByRole('button', { name: 'Finalizar simulado' }).click()
    await expect(page).toHaveURL(/\/ferramentas\/simulado-vet\/resultado\/[0-9a-f]{32}$/)
    await expect(page.getByRole('heading', { name: 'Resultado do simulado' })).toBeVisible()
    await expect(page.getByRole('list', { name: 'Desempenho por área' }).getByText('Cardiologia')).toBeVisible()
    await expect(page.getByText(/Correta: [A-E]\./).first()).toBeVisible()
    const score = Number((await page.getByLabel(/Você acertou \d+ de 10 questões/).getAttribute('aria-label'))?.match(/acertou (\d+)/)?.[1])
    const attemptId = page.url().split('/').pop()

    // VetCoins: 2 per correct answer, of kind challenge, credited once even
    // when the submit is sent again.
    expect(await challengePoints(page)).toBe(score * 2)
    // Reading the result again (which retries an uncredited award) credits nothing more.
    expect(attemptId).toMatch(/^[0-9a-f]{32}$/)
    await page.reload()
    await expect(page.getByRole('heading', { name: 'Resultado do simulado' })).toBeVisible()
    expect(await challengePoints(page)).toBe(score * 2)

    await page.getByRole('link', { name: 'Histórico' }).click()
    await expect(page).toHaveURL(/\/ferramentas\/simulado-vet\/history$/)
    await expect(page.getByRole('list', { name: 'Simulados finalizados' }).getByRole('link')).toHaveCount(1)
    await expect(page.getByRole('list', { name: 'Evolução em Cardiologia' })).toContainText(`1º: ${score * 10}%`)
  })

  test('a Quiz de Área round with immediate feedback (1280 px)', async ({ page, context, request }) => {
    await page.setViewportSize({ width: 1280, height: 800 })
    await signedInUser(context, request)
    await page.goto('/ferramentas/quiz-area')
    await expect(page.getByRole('heading', { name: 'Quiz de Área', level: 1 })).toBeVisible({ timeout: 30_000 })
    await expect(page.getByLabel('Área')).toBeVisible({ timeout: 30_000 })
    await page.getByLabel('Área').selectOption({ label: 'Dermatologia' })
    await page.getByRole('button', { name: 'Começar rodada' }).click()
    for (let i = 1; i <= 10; i++) {
      await expect(page.getByText(`Questão ${i} de 10 · Dermatologia`)).toBeVisible()
      await page.getByRole('radiogroup').getByRole('radio').first().click()
      await expect(page.getByText(/(Você acertou!|Resposta incorreta\.) Correta: [A-E]\./)).toBeVisible()
      if (i < 10) await page.getByRole('button', { name: 'Próxima questão' }).click()
    }
    await expect(page.getByRole('heading', { name: 'Rodada concluída' })).toBeVisible()
    await expect(page.getByText(/^\d+\/10 acertos$/)).toBeVisible()
  })
})
