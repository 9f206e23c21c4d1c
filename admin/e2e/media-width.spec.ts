import { expect, test } from '@playwright/test'
import { finishTwoStep } from './support/twoStep'
import { expectNoSeriousA11yViolations } from './support/a11y'

const EDITOR = { email: 'editora@vetclube.dev', password: 'Pauta#Editora26' }

// The media library fits a 1280 px screen: the page never scrolls sideways.
test.use({ viewport: { width: 1280, height: 900 } })

test('the media library fits 1280 px', async ({ page }) => {
  await page.goto('/backoffice/')
  await page.getByRole('textbox', { name: 'Email' }).fill(EDITOR.email)
  await page.getByRole('textbox', { name: 'Senha' }).fill(EDITOR.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await finishTwoStep(page, EDITOR.email)
  await expect(page.getByRole('heading', { name: 'Painel do VetClube' })).toBeVisible({ timeout: 30_000 })
  // A library with the rows that widen it: long names, a processing video, places of use.
  const row = (i: number, over: Record<string, unknown> = {}) => ({
    id: `0b7c2a64-7a1d-4a43-9a0e-6f1f7c2f8e1${i}`, kind: 'video', state: 'pronto', progress_percent: 100,
    original_name: `aula-completa-de-sutura-intradermica-em-caes-e-gatos-versao-final-revisada-${i}.mp4`, mime_type: 'video/mp4',
    size_bytes: 734003200, duration_seconds: 3725, created_at: '2026-11-25T10:00:00Z', updated_at: '2026-11-25T10:01:00Z',
    poster_url: '', thumbnail_urls: [],
    used_in: [{ type: 'videos', id: 'v1', title: 'Sutura intradérmica na prática: do planejamento ao pós-operatório em pequenos animais' }],
    ...over,
  })
  await page.route(/\/api\/admin\/media(\?.*)?$/, (route) =>
    route.fulfill({
      status: 200,
      headers: { 'Content-Type': 'application/json', 'Content-Range': 'media 0-2/3', 'Access-Control-Expose-Headers': 'Content-Range' },
      body: JSON.stringify([row(1), row(2, { state: 'processando', progress_percent: 42, progress: { '360p': 100, '720p': 12 } }), row(3, { kind: 'document', mime_type: 'application/pdf', duration_seconds: null })]),
    }),
  )
  await page.goto('/backoffice/#/media')
  await expect(page.getByPlaceholder('Buscar pelo nome')).toBeVisible()
  await expect(page.getByText(/aula-completa-de-sutura/).first()).toBeVisible()
  const widths = await page.evaluate(() => {
    const over = [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 8)
      .map((el) => `${el.tagName}.${String(el.className).slice(0, 80)} right=${Math.round(el.getBoundingClientRect().right)}`)
    return { doc: document.documentElement.scrollWidth, view: window.innerWidth, over }
  })
  expect(widths.doc, JSON.stringify(widths, null, 1)).toBe(widths.view)
  await expectNoSeriousA11yViolations(page, 'biblioteca de mídia (1280 px)')
})
