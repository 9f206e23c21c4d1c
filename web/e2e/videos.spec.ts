import { expect, test } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { signedInUser } from './support/users'

// Exclusive videos on the real server with the demo seed (six videos, two
// categories, YouTube sources): a member in the Premium trial filters,
// opens a video by its #id, likes, favorites and completes it; the
// completed filter and a shared #id link find it again. (Playback itself is
// YouTube's embed; the test machine has no internet, so it is not played.)

const TITLE = 'Reconhecendo a dor em felinos'

test('a trial member filters, opens a video by its link, likes, favorites and completes it', async ({ page, context, request }) => {
  test.setTimeout(120_000)
  await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
  await signedInUser(context, request, { firstName: 'Lia', lastName: 'Campos' })

  // The home card shows the newest video.
  await page.goto('/')
  await expect(page.getByRole('region', { name: 'Conteúdo Exclusivo' }).getByRole('link', { name: /^Assistir: / })).toBeVisible()

  await page.goto('/conteudos-exclusivos')
  await expect(page.getByRole('heading', { level: 1, name: 'Conteúdos Exclusivos' })).toBeVisible()
  const list = page.getByRole('list', { name: 'Vídeos' })
  await expect(list.getByRole('article')).toHaveCount(6)
  await page.getByLabel('Categoria').selectOption({ label: 'Carreira e Gestão' })
  await expect(list.getByRole('article')).toHaveCount(2)
  await page.getByLabel('Categoria').selectOption({ label: 'Todas' })
  await page.getByLabel('Buscar vídeos').fill('felinos')
  await expect(list.getByRole('article')).toHaveCount(1)
  await expectNoSeriousA11yViolations(page, '/conteudos-exclusivos')

  await list.getByRole('link', { name: TITLE }).click()
  await expect(page).toHaveURL(/\/conteudos-exclusivos#[0-9a-f-]{36}$/)
  const videoURL = page.url()
  const dialog = page.getByRole('dialog', { name: TITLE })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('group', { name: 'Player de vídeo' })).toBeVisible()

  const like = dialog.getByRole('button', { name: /^Curtir vídeo/ })
  await like.click()
  await expect(like).toHaveAttribute('aria-pressed', 'true')
  await expect(like).toHaveAccessibleName('Curtir vídeo, 1 curtida')
  await dialog.getByRole('button', { name: 'Favoritar' }).click()
  await expect(dialog.getByRole('button', { name: 'Favoritar' })).toHaveAttribute('aria-pressed', 'true')
  await dialog.getByRole('button', { name: 'Marcar como concluído' }).click()
  await expect(dialog.getByRole('button', { name: 'Desmarcar como concluído' })).toBeVisible()
  await expectNoSeriousA11yViolations(page, 'video dialog')

  // Escape closes it and drops the #id.
  await page.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  await expect(page).toHaveURL(/\/conteudos-exclusivos$/)

  // The completed filter finds it; the statistics follow.
  await page.getByLabel('Buscar vídeos').fill('')
  await page.getByLabel('Apenas concluídos').check()
  await expect(list.getByRole('article')).toHaveCount(1)
  await expect(list.getByRole('article').first()).toContainText(TITLE)

  // A shared link opens the same video; Back returns to the list.
  await page.goto(videoURL)
  await expect(page.getByRole('dialog', { name: TITLE })).toBeVisible()
  await expect(page.getByRole('dialog', { name: TITLE }).getByRole('button', { name: /^Curtir vídeo/ })).toHaveAttribute('aria-pressed', 'true')
  await page.goBack()
  await expect(page.getByRole('dialog', { name: TITLE })).toBeHidden()
  await expect(page.getByRole('heading', { level: 1, name: 'Conteúdos Exclusivos' })).toBeVisible()
})
