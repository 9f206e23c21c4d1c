import { execFileSync } from 'node:child_process'
import { finishTwoStep } from './support/twoStep'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, type Browser, type Page, type Request } from '@playwright/test'

// Dev seed (core/app/seed.go): the demo editor; the exclusive videos type
// (plugins/videos) has the 'video' field kind the generic form renders as the
// media input.
const EDITOR = { email: 'editora@vetclube.dev', password: 'Pauta#Editora26' }

async function signedIn(browser: Browser): Promise<Page> {
  const page = await (await browser.newContext()).newPage()
  await page.goto('/backoffice/')
  await page.getByRole('textbox', { name: 'Email' }).fill(EDITOR.email)
  await page.getByRole('textbox', { name: 'Senha' }).fill(EDITOR.password)
  await page.getByRole('button', { name: 'Entrar' }).click()
  await finishTwoStep(page, EDITOR.email)
  await expect(page.getByRole('heading', { name: 'Painel do VetClube' })).toBeVisible({ timeout: 30_000 })
  return page
}

const dir = mkdtempSync(join(tmpdir(), 'vetclube-media-e2e-'))
const VIDEO = join(dir, 'aula-sutura.mp4')
const FAKE = join(dir, 'nao-e-video.mp4')
const COVER = join(dir, 'capa-vacinacao.png')

test.beforeAll(() => {
  // A real 4 s H.264/AAC video (a few hundred KB), made by the same ffmpeg the server transcodes with.
  execFileSync('ffmpeg', [
    '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25',
    '-f', 'lavfi', '-i', 'sine',
    '-t', '4', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', VIDEO,
  ])
  // Named .mp4, but text: only the server's check of the first bytes can refuse it.
  writeFileSync(FAKE, 'isto não é um vídeo\n'.repeat(2000))
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360', '-frames:v', '1', COVER])
})

test('an editor uploads a video with pause and resume, sees it processed, uses it in a video and cannot delete it while in use', async ({ browser }) => {
  test.setTimeout(300_000)
  const page = await signedIn(browser)
  await page.getByRole('menuitem', { name: 'Biblioteca de mídia' }).click()
  await expect(page).toHaveURL(/#\/media/)
  await expect(page.getByRole('heading', { name: 'Biblioteca de mídia' })).toBeVisible()

  // A slow uplink, so the progress can be watched, paused and resumed.
  const cdp = await page.context().newCDPSession(page)
  const uplink = (bytesPerSecond: number, offline = false) =>
    cdp.send('Network.emulateNetworkConditions', { offline, latency: 20, downloadThroughput: -1, uploadThroughput: bytesPerSecond })
  await uplink(60 * 1024)

  // The requests that carry the file's bytes (tus PATCH), counted as they start and end.
  const isPatch = (r: Request) => r.method() === 'PATCH' && r.url().includes('/media/uploads/')
  const patches = { started: 0, inFlight: 0, finished: 0 }
  page.on('request', (r) => {
    if (!isPatch(r)) return
    patches.started++
    patches.inFlight++
  })
  page.on('requestfinished', (r) => {
    if (!isPatch(r)) return
    patches.inFlight--
    patches.finished++
  })
  page.on('requestfailed', (r) => {
    if (isPatch(r)) patches.inFlight--
  })

  await page.getByRole('button', { name: 'Enviar arquivo' }).click()
  const dialog = page.getByRole('dialog', { name: 'Enviar para a biblioteca de mídia' })
  await dialog.locator('input[type="file"]').setInputFiles(VIDEO)
  const bar = dialog.getByRole('progressbar', { name: 'Envio de aula-sutura.mp4' })
  await expect(bar).toBeVisible()
  await expect(dialog.getByText(/^\d+ % · .+ de .+$/)).toBeVisible()
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow')), { timeout: 20_000 }).toBeGreaterThan(0)
  await dialog.getByRole('button', { name: 'Pausar' }).click()
  await expect(dialog.getByText(/· pausado$/)).toBeVisible()
  // Pausing stops the transfer: the request carrying the bytes ends unfinished and no other starts.
  await expect.poll(() => patches.inFlight).toBe(0)
  expect(patches.finished).toBe(0)
  const startedWhenPaused = patches.started
  const paused = Number(await bar.getAttribute('aria-valuenow'))
  expect(paused).toBeLessThan(100)
  await expect(dialog.getByText(/· pausado$/)).toBeVisible()
  expect(Number(await bar.getAttribute('aria-valuenow'))).toBe(paused)
  expect(patches.started).toBe(startedWhenPaused)

  // The connection drops under the resumed transfer and comes back: the
  // upload notices and goes on by itself. (An emulated offline switch leaves a
  // request already under way hanging instead of failing, so the drop is
  // the resumed request failing as a lost network makes it fail.)
  let dropped = 0
  await page.route('**/media/uploads/**', (route) => {
    if (route.request().method() === 'PATCH' && dropped++ === 0) return route.abort('internetdisconnected')
    return route.fallback()
  })
  // The retry notice may show for a moment only (the retried request is not
  // throttled): an observer records that it appeared.
  await page.evaluate(() => {
    const w = window as unknown as { sawRetry?: boolean }
    new MutationObserver(() => {
      if (document.body.textContent?.includes('A conexão falhou; tentando de novo…')) w.sawRetry = true
    }).observe(document.body, { childList: true, subtree: true, characterData: true })
  })
  await dialog.getByRole('button', { name: 'Retomar' }).click()
  await expect.poll(() => page.evaluate(() => (window as unknown as { sawRetry?: boolean }).sawRetry === true), { timeout: 20_000 }).toBe(true)
  // The notice shows when the retry is scheduled; the retried request
  // itself follows after a short back-off.
  await expect.poll(() => dropped, { timeout: 20_000 }).toBeGreaterThanOrEqual(2)
  await page.unrouteAll({ behavior: 'wait' })
  await uplink(-1)
  await expect(bar).toHaveAttribute('aria-valuenow', '100', { timeout: 60_000 })
  await expect(dialog.getByText(/^100 % · .+ · envio concluído$/)).toBeVisible()

  // A file named .mp4 whose bytes are not a video: the server's pt-BR reason.
  await dialog.locator('input[type="file"]').setInputFiles(FAKE)
  await expect(dialog.getByRole('alert')).toContainText('vídeo', { timeout: 20_000 })
  const refusal = (await dialog.getByRole('alert').textContent()) ?? ''
  expect(refusal).not.toMatch(/HTTP|Error|status/)
  await dialog.getByRole('button', { name: 'Fechar' }).click()

  // The library shows it processing (with its percent) or already ready, then ready.
  const row = page.getByRole('row').filter({ hasText: 'aula-sutura.mp4' })
  await expect(row.getByText(/^(Processando \(\d+ %\)|Pronto)$/)).toBeVisible()
  await expect(row.getByText('Pronto', { exact: true })).toBeVisible({ timeout: 180_000 })
  await expect(row.getByText('0:04')).toBeVisible()
  await expect(row.getByRole('img')).toBeVisible()
  await row.getByText('aula-sutura.mp4').click()
  await expect(page.getByText('Duração: 0:04')).toBeVisible()
  await expect(page.getByText(/^Versões: 360p/)).toBeVisible()

  // The generic content form: the video field picks the asset from the library.
  await page.goto('/backoffice/#/content/videos/create')
  await page.getByRole('textbox', { name: 'Título' }).fill('Sutura intradérmica na prática')
  await page.getByRole('combobox', { name: 'Origem do vídeo' }).click()
  await page.getByRole('option', { name: 'Vídeo enviado (biblioteca de mídia)' }).click()
  const field = page.getByRole('group', { name: 'Vídeo enviado' })
  await field.getByRole('button', { name: 'Escolher da biblioteca' }).click()
  const picker = page.getByRole('dialog', { name: 'Escolher da biblioteca de mídia' })
  await picker.getByRole('textbox', { name: 'Buscar pelo nome' }).fill('sutura')
  await picker.getByRole('button', { name: /aula-sutura\.mp4/ }).click()
  await expect(field.getByText('Pronto', { exact: true })).toBeVisible()
  await expect(field.getByText('Duração: 0:04')).toBeVisible()
  // Only the chosen source's fields, and 'Duração' taken from the asset, not typed.
  await expect(page.getByRole('textbox', { name: 'Endereço no YouTube' })).toHaveCount(0)
  await expect(page.getByRole('textbox', { name: 'Endereço no Vimeo' })).toHaveCount(0)
  const duration = page.getByRole('textbox', { name: 'Duração', exact: true })
  await expect(duration).toHaveValue('0:04')
  await expect(duration).toHaveAttribute('readonly', '')
  // The card's picture: a frame the processing extracted, chosen from the library.
  const thumbnail = page.getByRole('group', { name: 'Miniatura' })
  await thumbnail.getByRole('button', { name: 'Escolher da biblioteca' }).click()
  const frames = page.getByRole('dialog', { name: 'Escolher imagem da biblioteca' })
  await frames.getByRole('textbox', { name: 'Buscar pelo nome' }).fill('sutura')
  await expect(frames.getByRole('button', { name: 'Capa de aula-sutura.mp4' })).toBeVisible()
  await frames.getByRole('button', { name: 'Miniatura 2 de aula-sutura.mp4' }).click()
  await expect(frames).toBeHidden()
  await expect(thumbnail.getByRole('img', { name: 'Miniatura' })).toBeVisible()
  await expect.poll(() => thumbnail.getByRole('img', { name: 'Miniatura' }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
  await page.getByRole('button', { name: 'Salvar' }).click()
  await expect(page).toHaveURL(/#\/content\/videos\/[0-9a-f-]{36}$/)
  const videoID = page.url().match(/videos\/([0-9a-f-]{36})/)![1]
  const saved = (await (await page.request.get(`/api/admin/content/videos/${videoID}`)).json()) as { fields: { thumbnail: string } }
  expect(saved.fields.thumbnail).toMatch(/^media\/[0-9a-f-]{36}\/.+\.jpg$/)
  await expect(page.getByRole('group', { name: 'Vídeo enviado' }).getByText('Pronto', { exact: true })).toBeVisible()

  // In use: the library refuses to delete it, saying where.
  await page.goto('/backoffice/#/media')
  const used = page.getByRole('row').filter({ hasText: 'aula-sutura.mp4' })
  await expect(used.getByRole('link', { name: 'Sutura intradérmica na prática' })).toBeVisible()
  await used.getByRole('button', { name: 'Excluir aula-sutura.mp4' }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Excluir' }).click()
  await expect(page.getByText(/Este arquivo está em uso em: .*Sutura intradérmica na prática/)).toBeVisible()
})

test("a news item's cover image joins the library, shown there as used by the item", async ({ browser }) => {
  const page = await signedIn(browser)
  await page.goto('/backoffice/#/content/noticias/create')
  await page.getByRole('textbox', { name: 'Título' }).fill('Campanha de vacinação de felinos')
  await page
    .getByRole('textbox', { name: 'Texto' })
    .fill('A campanha de vacinação de felinos começa no próximo mês. As clínicas parceiras atendem com hora marcada e registro no prontuário.')
  await page.getByRole('combobox', { name: 'Categoria' }).click()
  await page.getByRole('option').first().click()
  await page.getByRole('group', { name: 'Imagem de capa' }).locator('input[type="file"]').setInputFiles(COVER)
  await expect(page.getByRole('img', { name: 'Imagem de capa' })).toBeVisible()
  await page.getByRole('button', { name: 'Salvar' }).click()
  await expect(page).toHaveURL(/#\/content\/noticias\/[0-9a-f-]{36}$/)

  await page.goto('/backoffice/#/media')
  const row = page.getByRole('row').filter({ hasText: 'capa-vacinacao.png' })
  await expect(row.getByText('Imagem', { exact: true })).toBeVisible()
  await expect(row.getByText('Pronto', { exact: true })).toBeVisible()
  await expect(row.getByRole('img', { name: 'Prévia de capa-vacinacao.png' })).toBeVisible()
  await expect(row.getByRole('link', { name: 'Campanha de vacinação de felinos' })).toBeVisible()
})
