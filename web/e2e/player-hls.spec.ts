import { dirname, join } from 'node:path'
import { expect, test, type Response } from '@playwright/test'
import { enrolledLearner, published } from './support/content'
import { makeStream } from './support/hls'
import { signInByApi } from './support/users'

// The <video> player on a real HLS stream: ffmpeg makes 8 s of test pattern
// and tone in two renditions (360p, 720p) with a master playlist and a
// Portuguese WebVTT subtitle group, written where the e2e server keeps its
// uploads (DATA_DIR/uploads, served under /uploads/ like the media pipeline's
// output). A published lesson streams it (video_source 'stream'). Chromium
// has no native HLS, so hls.js plays it through MSE: the test checks the
// playlists and segments load over the network (never from the service
// worker), the quality menu lists the renditions and switches to one, the
// captions show cues, the speed applies and the shortcuts work.

const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' } // dev seed (core/app/seed.go)

const isMedia = (r: Response, pattern: RegExp) => r.url().includes('/uploads/media/e2e-player-') && pattern.test(new URL(r.url()).pathname)

test('an HLS lesson plays through hls.js with quality, captions, speed and keyboard shortcuts', async ({ browser, baseURL }) => {
  test.setTimeout(180_000)
  const dataDir = dirname(process.env.E2E_SERVER_LOG!)
  const master = makeStream(join(dataDir, 'uploads'), 'e2e-player')
  const streamURL = `${baseURL}/uploads/${master}`

  const stamp = Date.now().toString(36)
  const COURSE = `Sutura em pele ${stamp}`
  const LESSON = `Padrões de sutura ${stamp}`
  const admin = await browser.newContext()
  await signInByApi(admin, SUPER_ADMIN)
  const category = await published(admin, 'cursos-categorias', `Cirurgia ${stamp}`, { display_order: 60 })
  const instructor = await published(admin, 'cursos-instrutores', 'Dr. Caio Nunes', { professional_title: 'Cirurgião veterinário' })
  const lesson = await published(admin, 'cursos-aulas', LESSON, {
    body: 'Padrões simples, contínuos e de Donati.',
    duration: '00:08',
    is_free: true,
    video_source: 'stream',
    stream_url: streamURL,
  })
  const module = await published(admin, 'cursos-modulos', 'Técnicas básicas', { lessons: [lesson] })
  const course = await published(admin, 'cursos', COURSE, {
    description: 'Técnicas de sutura em pele para o dia a dia da clínica de pequenos animais, com vídeo.',
    category,
    instructor,
    level: 'Iniciante',
    duration: '1h',
    modules: [module],
  })
  await admin.close()

  const { learner, page, consoleErrors } = await enrolledLearner(browser, course, { firstName: 'Bia', lastName: 'Lopes' })
  // The service worker is installed and controls the page before the player opens.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready
  })
  await page.reload()
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true)

  // Opening the lesson loads hls.js (its own chunk), the master, a rendition's playlist and its segments.
  const hlsChunk = page.waitForResponse((r) => /\/assets\/hls-[^/]+\.js$/.test(new URL(r.url()).pathname))
  const masterLoaded = page.waitForResponse((r) => isMedia(r, /\/master\.m3u8$/))
  const variantLoaded = page.waitForResponse((r) => isMedia(r, /\/(360p|720p)\/index\.m3u8$/))
  const segmentLoaded = page.waitForResponse((r) => isMedia(r, /\/(360p|720p)\/seg_\d+\.ts$/))
  await page.goto(`/cursos/${course}/aula/${lesson}`)
  await expect(page.getByRole('heading', { level: 1, name: LESSON })).toBeVisible()
  for (const res of [await hlsChunk, await masterLoaded, await variantLoaded, await segmentLoaded]) {
    expect(res.status(), res.url()).toBe(200)
    // Neither the player's code nor the media come from the service worker's caches.
    expect(res.fromServiceWorker(), res.url()).toBe(false)
  }
  expect((await masterLoaded).headers()['content-type']).toContain('mpegurl')

  const video = page.getByLabel(LESSON, { exact: true })
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(8)

  // The quality menu lists the renditions.
  const quality = page.getByLabel('Qualidade')
  await expect(quality.locator('option')).toHaveText([/^Automática/, '720p', '360p'])
  await expect(quality).toHaveValue('-1')

  // Play with the keyboard (K on the focused video) and watch the playhead move.
  await video.focus()
  await page.keyboard.press('k')
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0.5), { timeout: 20_000 }).toBe(true)

  // Speed.
  await page.getByLabel('Velocidade').selectOption({ label: '1,5×' })
  expect(await video.evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(1.5)

  // Captions: the Portuguese track is listed, turned on, and its cues show.
  const captions = page.getByLabel('Legendas')
  await expect(captions.locator('option')).toHaveText(['Desativadas', 'Português'])
  const vttLoaded = page.waitForResponse((r) => isMedia(r, /\/subs\/pt\/seg_000\.vtt$/))
  await captions.selectOption({ label: 'Português' })
  expect((await vttLoaded).status()).toBe(200)
  await expect
    .poll(
      () =>
        video.evaluate((v: HTMLVideoElement) => {
          const showing = Array.from(v.textTracks).find((t) => t.mode === 'showing')
          return showing ? Array.from(showing.cues ?? []).map((c) => (c as VTTCue).text) : []
        }),
      { timeout: 15_000 },
    )
    .toContain('Legenda de teste: primeira parte')
  // C turns them off, and on again.
  await video.focus()
  await page.keyboard.press('c')
  await expect(captions).toHaveValue('-1')
  expect(await video.evaluate((v: HTMLVideoElement) => Array.from(v.textTracks).some((t) => t.mode === 'showing'))).toBe(false)
  await page.keyboard.press('c')
  await expect(captions).toHaveValue('0')

  // Choosing 360p plays 360p segments at 640x360.
  const lowSegment = page.waitForResponse((r) => isMedia(r, /\/360p\/seg_\d+\.ts$/))
  await quality.selectOption({ label: '360p' })
  expect((await lowSegment).status()).toBe(200)
  await video.evaluate((v: HTMLVideoElement) => {
    v.currentTime = 0
    return v.play()
  })
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoHeight), { timeout: 20_000 }).toBe(360)

  // Shortcuts while the player has focus: pause, seek, mute; none while typing elsewhere.
  await video.focus()
  await page.keyboard.press('k')
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true)
  const before = await video.evaluate((v: HTMLVideoElement) => v.currentTime)
  await page.keyboard.press('ArrowRight')
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeCloseTo(Math.min(8, before + 5), 0)
  await page.keyboard.press('m')
  expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true)
  await page.getByLabel('Velocidade').focus()
  await page.keyboard.press('m')
  expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true)

  // The help lists the shortcuts.
  await page.getByRole('button', { name: 'Atalhos do teclado' }).click()
  await expect(page.getByText('Ativar ou desativar as legendas')).toBeVisible()

  // Nothing the service worker precached is hls.js or media.
  const cached = await page.evaluate(async () => {
    const urls: string[] = []
    for (const name of await caches.keys()) for (const req of await (await caches.open(name)).keys()) urls.push(req.url)
    return urls
  })
  expect(cached.length).toBeGreaterThan(0)
  // hls.js chunks are named hls-<hash>.js / hls.worker-<hash>.js; another chunk's hash may contain "hls".
  expect(cached.filter((u) => /\/hls[.-]|\.m3u8|\.ts(\?|$)|\/uploads\//.test(u))).toEqual([])
  expect(consoleErrors.filter((e) => /Content Security Policy|Refused/.test(e))).toEqual([])
  await learner.close()
})
