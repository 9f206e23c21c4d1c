import { execFileSync } from 'node:child_process'
import { DEV_TOTP, devTOTP } from '../../e2e-support/totp'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser, type Page } from '@playwright/test'
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

// The media pipeline end to end on the real server (tus upload, Temporal +
// ffmpeg transcoding, HLS served only by signed address from
// /api/media/stream/<token>/, never from /uploads/): the demo editor uploads a
// video in the backoffice and meets the review gate while it is processed,
// the demo reviewer publishes it, and a member in the Premium trial plays the
// HLS stream to its end, which completes it.
const EDITOR = { email: 'editora@vetclube.dev', password: 'Pauta#Editora26' } // dev seed, core/app/seed.go
const REVISOR = { email: 'revisor@vetclube.dev', password: 'Revisao#Pauta26' }
const UPLOADED_TITLE = 'Sutura intradérmica passo a passo'

async function backoffice(browser: Browser, account: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await page.goto('/backoffice/')
  await page.getByRole('textbox', { name: 'Email' }).fill(account.email)
  await page.getByRole('textbox', { name: 'Senha' }).fill(account.password)
  await page.getByRole('button', { name: 'Entrar', exact: true }).click()
  if (DEV_TOTP[account.email]) {
    await page.getByRole('textbox', { name: 'Código de verificação' }).fill(await devTOTP(account.email))
    await page.getByRole('button', { name: 'Verificar' }).click()
  }
  await expect(page.getByRole('heading', { name: 'Painel do VetClube' })).toBeVisible({ timeout: 30_000 })
  return page
}

test('an editor uploads a video, a reviewer publishes it after processing, a member plays the HLS stream to completion', async ({ browser, context, request, page }) => {
  test.setTimeout(300_000)
  // A real 6 s 720p H.264/AAC clip: the ladder gets 360p and 720p.
  const dir = mkdtempSync(join(tmpdir(), 'vetclube-video-e2e-'))
  const clip = join(dir, 'sutura.mp4')
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440',
    '-t', '6', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', clip])

  const editor = await backoffice(browser, EDITOR)
  await editor.getByRole('menuitem', { name: 'Vídeos exclusivos' }).click()
  await expect(editor).toHaveURL(/#\/content\/videos/)
  await editor.getByRole('link', { name: 'Criar' }).click()
  await editor.getByRole('textbox', { name: 'Título' }).fill(UPLOADED_TITLE)
  await editor.getByRole('combobox', { name: 'Origem do vídeo' }).click()
  await editor.getByRole('option', { name: 'Vídeo enviado (biblioteca de mídia)' }).click()
  const field = editor.getByRole('group', { name: 'Vídeo enviado' })
  await field.locator('input[type="file"]').setInputFiles(clip)
  // The upload's own progress bar, then the processing percentage.
  await expect(field.getByRole('progressbar', { name: 'Envio de sutura.mp4' })).toBeVisible()
  await expect(field.getByText(/^Processando \(\d+ %\)$/)).toBeVisible({ timeout: 60_000 })
  await editor.getByRole('button', { name: 'Salvar' }).click()
  await expect(editor).toHaveURL(/#\/content\/videos\/[0-9a-f-]{36}$/)
  const id = editor.url().match(/videos\/([0-9a-f-]{36})/)![1]

  // The review gate: while the asset is processed the submission is refused
  // with the plugin's reason (unless the transcode already finished).
  await editor.getByRole('button', { name: 'Enviar para revisão' }).click()
  const refused = editor.getByText(/O vídeo ainda está sendo processado \(\d+ %\)\./)
  const inReview = editor.getByText('Em revisão').first()
  await expect(refused.or(inReview)).toBeVisible()
  const gated = await refused.isVisible()
  await expect(editor.getByRole('group', { name: 'Vídeo enviado' }).getByText('Pronto')).toBeVisible({ timeout: 180_000 })
  if (gated) {
    await editor.getByRole('button', { name: 'Enviar para revisão' }).click()
  }
  await expect(inReview).toBeVisible()

  const reviewer = await backoffice(browser, REVISOR)
  await reviewer.goto(`/backoffice/#/content/videos/${id}`)
  await reviewer.getByRole('button', { name: 'Aprovar' }).click()
  await expect(reviewer.getByText('Aprovado').first()).toBeVisible()
  await reviewer.getByRole('button', { name: 'Publicar agora' }).click()
  // Publishing now asks first.
  await reviewer.getByRole('dialog').getByRole('button', { name: 'Confirmar' }).click()
  await expect(reviewer.getByText('Publicado').first()).toBeVisible()

  // A member in the Premium trial opens it by its link and plays the stream.
  await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
  await signedInUser(context, request, { firstName: 'Bruno', lastName: 'Teles' })
  const master = page.waitForResponse((r) => /\/api\/media\/stream\/[^/]+\/master\.m3u8$/.test(r.url()) && r.status() === 200)
  const segment = page.waitForResponse((r) => /\/api\/media\/stream\/[^/]+\/.+\.ts$/.test(r.url()) && r.status() === 200)
  await page.goto(`/conteudos-exclusivos#${id}`)
  const dialog = page.getByRole('dialog', { name: UPLOADED_TITLE })
  await expect(dialog).toBeVisible()
  for (const res of [await master, await segment]) {
    // For the member's browser only, never from the service worker.
    expect(res.headers()['cache-control']).toMatch(/^private, max-age=\d+$/)
    expect(res.fromServiceWorker()).toBe(false)
  }
  // The token names the stream's folder: its permanent /uploads/ address serves nothing.
  const token = new URL((await master).url()).pathname.split('/')[4] ?? ''
  const folder = Buffer.from(token.split('.')[0] ?? '', 'base64url').toString().split('\n')[3]
  expect(folder).toMatch(/^media\/[0-9a-f-]{36}\/[0-9a-f]+\/hls$/)
  expect((await request.get(`/uploads/${folder}/master.m3u8`)).status()).toBe(404)
  // A tampered token is refused.
  const forged = (await master).url().replace(`/${token}/`, `/${token.slice(0, -2)}AA/`)
  expect((await request.get(forged)).status()).toBe(403)
  await expect(dialog.getByRole('combobox', { name: 'Qualidade' })).toContainText('720p')

  const like = dialog.getByRole('button', { name: /^Curtir vídeo/ })
  await like.click()
  await expect(like).toHaveAttribute('aria-pressed', 'true')

  // Watched to its end at 2×: every second actually played, so the watched
  // ranges pass 90 % and the server completes it.
  await dialog.getByRole('combobox', { name: 'Velocidade' }).selectOption({ label: '2×' })
  const video = dialog.locator('video')
  await video.evaluate((el: HTMLVideoElement) => { el.muted = true; return el.play() })
  await expect.poll(() => video.evaluate((el: HTMLVideoElement) => el.ended), { timeout: 30_000 }).toBe(true)
  await expect(dialog.getByRole('button', { name: 'Desmarcar como concluído' })).toBeVisible({ timeout: 15_000 })

  await page.keyboard.press('Escape')
  await page.getByLabel('Apenas concluídos').check()
  const list = page.getByRole('list', { name: 'Vídeos' })
  await expect(list.getByRole('article')).toHaveCount(1)
  await expect(list.getByRole('article').first()).toContainText(UPLOADED_TITLE)
})
