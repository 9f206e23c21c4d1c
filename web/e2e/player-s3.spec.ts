import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { createInterface } from 'node:readline'
import { expect, test, type Response } from '@playwright/test'
import { repoDir } from '../../e2e-support/server'
import { enrolledLearner, published } from './support/content'
import { makeStream } from './support/hls'
import { startServer, type RunningServer } from './support/server'
import { signInByApi } from './support/users'

// The media library on S3 (S3_BUCKET set): public files live in the bucket
// and /uploads/<key> answers a redirect to S3_PUBLIC_URL for them. S3 is a
// paid outside service, so the bucket is the tests' fake (gofakes3 behind
// core/storage/s3fake, run as a process, CORS open for GET as the README
// asks of a real bucket). The server under test and the browser are real:
// hls.js follows the redirect, loads the variant playlists and segments
// from the bucket's origin (relative to the redirected playlist), the CSP
// allows that origin, and the video plays.

const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' } // dev seed (core/app/seed.go)
const BUCKET = 'vetclube-publico'

let s3: ChildProcess | undefined
let s3URL = ''
let server: RunningServer | undefined
const work = mkdtempSync(join(tmpdir(), 'vetclube-s3-e2e-'))

test.beforeAll(async () => {
  test.setTimeout(180_000)
  const bin = join(work, 's3fake')
  execFileSync('go', ['build', '-o', bin, './core/storage/s3fake/cmd/s3fake'], { cwd: repoDir, stdio: 'inherit' })
  s3 = spawn(bin, ['-buckets', `${BUCKET},vetclube-privado`], { stdio: ['ignore', 'pipe', 'inherit'] })
  s3URL = await new Promise<string>((resolve, reject) => {
    createInterface({ input: s3!.stdout! }).once('line', (line) => resolve(line.trim()))
    s3!.once('exit', (code) => reject(new Error(`s3fake exited with ${code}`)))
  })
  server = await startServer({
    S3_ENDPOINT: new URL(s3URL).host,
    S3_USE_SSL: 'false',
    S3_REGION: 'us-east-1',
    S3_BUCKET: BUCKET,
    S3_PRIVATE_BUCKET: 'vetclube-privado',
    S3_ACCESS_KEY_ID: 'teste',
    S3_SECRET_ACCESS_KEY: 'segredo-de-teste',
    S3_PUBLIC_URL: `${s3URL}/${BUCKET}/`,
  })
})

test.afterAll(async () => {
  await server?.stop()
  s3?.kill()
  rmSync(work, { recursive: true, force: true })
})

const TYPES: Record<string, string> = { '.m3u8': 'application/vnd.apple.mpegurl', '.ts': 'video/mp2t', '.vtt': 'text/vtt' }

/** Puts every file under dir into the bucket at the same relative key, as the server's S3 store does. */
async function upload(dir: string, root: string) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      await upload(path, root)
      continue
    }
    const key = relative(root, path).split('\\').join('/')
    const ext = name.slice(name.lastIndexOf('.'))
    const res = await fetch(`${s3URL}/${BUCKET}/${key}`, { method: 'PUT', body: readFileSync(path), headers: { 'Content-Type': TYPES[ext] ?? 'application/octet-stream' } })
    expect(res.status, `PUT ${key}`).toBe(200)
  }
}

test('an HLS stream kept on S3 plays through the /uploads/ redirect, its segments from the bucket', async ({ browser }) => {
  test.setTimeout(180_000)
  const local = join(work, 'pacote')
  const master = makeStream(local, 'e2e-s3')
  await upload(join(local, 'media'), local)
  const base = server!.baseURL
  const fromBucket = (r: Response, pattern: RegExp) => r.url().startsWith(`${s3URL}/${BUCKET}/media/e2e-s3-`) && pattern.test(new URL(r.url()).pathname)

  const stamp = Date.now().toString(36)
  const LESSON = `Anestesia inalatória ${stamp}`
  const admin = await browser.newContext({ baseURL: base })
  await signInByApi(admin, SUPER_ADMIN)
  const category = await published(admin, 'cursos-categorias', `Anestesia ${stamp}`, { display_order: 61 })
  const instructor = await published(admin, 'cursos-instrutores', 'Dra. Lia Prado', { professional_title: 'Anestesiologista veterinária' })
  const lesson = await published(admin, 'cursos-aulas', LESSON, {
    body: 'Circuitos, vaporizadores e monitoração.',
    duration: '00:08',
    is_free: true,
    video_source: 'stream',
    stream_url: `${base}/uploads/${master}`,
  })
  const module = await published(admin, 'cursos-modulos', 'Equipamentos', { lessons: [lesson] })
  const course = await published(admin, 'cursos', `Anestesia na rotina ${stamp}`, {
    description: 'Anestesia inalatória em cães e gatos, do equipamento à recuperação, com aulas em vídeo.',
    category,
    instructor,
    level: 'Intermediário',
    duration: '1h',
    modules: [module],
  })
  await admin.close()

  const { learner, page, consoleErrors } = await enrolledLearner(browser, course, { firstName: 'Davi', lastName: 'Rocha' }, base)

  // The master is asked of /uploads/ and answered by the bucket after the redirect;
  // the variant playlist and a segment come straight from the bucket.
  const masterLoaded = page.waitForResponse((r) => fromBucket(r, /\/master\.m3u8$/))
  const variantLoaded = page.waitForResponse((r) => fromBucket(r, /\/(360p|720p)\/index\.m3u8$/))
  const segmentLoaded = page.waitForResponse((r) => fromBucket(r, /\/(360p|720p)\/seg_\d+\.ts$/))
  await page.goto(`/cursos/${course}/aula/${lesson}`)
  await expect(page.getByRole('heading', { level: 1, name: LESSON })).toBeVisible()
  const masterRes = await masterLoaded
  expect(masterRes.status()).toBe(200)
  const redirected = masterRes.request().redirectedFrom()
  expect(redirected?.url()).toBe(`${base}/uploads/${master}`)
  expect((await redirected!.response())?.status()).toBe(302)
  expect((await variantLoaded).status()).toBe(200)
  expect((await segmentLoaded).status()).toBe(200)

  const video = page.getByLabel(LESSON, { exact: true })
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(8)
  await video.focus()
  await page.keyboard.press('k')
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0.5), { timeout: 20_000 }).toBe(true)
  await expect(page.getByLabel('Qualidade').locator('option')).toHaveText([/^Automática/, '720p', '360p'])
  // Neither a CSP refusal nor a CORS error on the way.
  expect(consoleErrors).toEqual([])
  await learner.close()
})
