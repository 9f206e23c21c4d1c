// `make bench-web`: Lighthouse 12.8.2 on the mobile profile (its default:
// Moto G Power emulation, simulated slow 4G, 4x CPU slowdown) in Debian's
// Chromium, against the real server serving web/dist. Audits the landing page
// as a visitor and the home dashboard as a signed-in user, LIGHTHOUSE_RUNS
// times each (5 by default: one run swings by several points on a shared
// machine); prints every run and the median, and fails when a median is below
// the targets (performance 95, accessibility 100).
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { chromium } from '@playwright/test'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const LIGHTHOUSE = 'lighthouse@12.8.2'
const TARGETS = { performance: 95, accessibility: 100 }
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 5))
const webDir = resolve(import.meta.dirname, '..')
const repoDir = resolve(webDir, '..')
const outDir = join(webDir, '.lighthouse')
mkdirSync(outDir, { recursive: true })

const port = await new Promise((ok) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = s.address().port
    s.close(() => ok(p))
  })
})
const base = `http://127.0.0.1:${port}`
const dataDir = mkdtempSync(join(tmpdir(), 'vetclube-lh-'))
const env = { ...process.env, APP_ENV: 'development', HTTP_ADDR: `127.0.0.1:${port}`, PUBLIC_URL: base, WEB_DIST: join(webDir, 'dist'), DATA_DIR: dataDir, LOG_LEVEL: 'warn' }
delete env.DATABASE_URL
const server = spawn(join(repoDir, 'bin', 'vetclube'), ['serve'], { cwd: repoDir, env, stdio: 'ignore' })
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
// The server stops its PostgreSQL cluster on SIGTERM: wait for it before removing the data.
const stop = async () => {
  if (server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r))
    server.kill('SIGTERM')
    await exited
  }
  rmSync(dataDir, { recursive: true, force: true })
}

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break
    } catch {
      // Not listening yet.
    }
    if (i > 300) throw new Error('server did not become ready')
    await new Promise((r) => setTimeout(r, 200))
  }

  const results = []
  // LIGHTHOUSE_PAGES=home (or landing) audits one page only.
  const pages = (process.env.LIGHTHOUSE_PAGES ?? 'landing,home').split(',')
  if (pages.includes('landing')) results.push(audits('landing (visitor)', `${base}/landing`, null))
  // The signed-in audit runs in a browser that already holds the session
  // cookies (the app reads vc_csrf from document.cookie, so a Cookie header
  // alone would not do): Lighthouse attaches to it over the debugging port.
  if (pages.includes('home')) {
    const debugPort = await freePort()
    const profileDir = mkdtempSync(join(tmpdir(), 'vetclube-lh-profile-'))
    const chrome = spawn(process.env.CHROME_PATH ?? '/usr/bin/chromium', [...CHROME_FLAGS, `--remote-debugging-port=${debugPort}`, `--user-data-dir=${profileDir}`, 'about:blank'], { stdio: 'ignore' })
    try {
      await signIn(debugPort)
      results.push(audits('home (signed in)', `${base}/`, debugPort))
    } finally {
      chrome.kill('SIGTERM')
      await new Promise((r) => (chrome.exitCode !== null ? r() : chrome.once('exit', r)))
      rmSync(profileDir, { recursive: true, force: true })
    }
  }

  let failed = false
  console.log('\nLighthouse 12.8.2, mobile profile')
  for (const r of results) {
    const line = Object.entries(r.median).map(([k, v]) => `${k} ${v} (${r.runs.map((run) => run.scores[k]).join(', ')})`).join('; ')
    console.log(`  ${r.name}, median of ${r.runs.length}: ${line}`)
    for (const run of r.runs) console.log(`    ${Object.entries(run.metrics).map(([k, v]) => `${k} ${v} ms`).join(', ')}  ${run.report}`)
    for (const [k, min] of Object.entries(TARGETS)) if (r.median[k] < min) failed = true
  }
  if (failed) {
    console.error(`below target (performance ≥ ${TARGETS.performance}, accessibility ≥ ${TARGETS.accessibility})`)
    process.exitCode = 1
  }
} finally {
  await stop()
}

/** RUNS audits of url, with the median of each category's score. */
function audits(name, url, port) {
  const runs = Array.from({ length: RUNS }, (_, i) => audit(name, url, port, i + 1))
  const median = {}
  for (const k of Object.keys(runs[0].scores)) {
    const sorted = runs.map((r) => r.scores[k]).sort((a, b) => a - b)
    const mid = Math.floor(sorted.length / 2)
    median[k] = sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2)
  }
  return { name, runs, median }
}

function audit(name, url, port, run) {
  const file = join(outDir, `${name.replace(/\W+/g, '-')}-${run}.json`)
  const args = [
    '--yes',
    LIGHTHOUSE,
    url,
    '--quiet',
    '--output=json',
    `--output-path=${file}`,
    '--only-categories=performance,accessibility,best-practices,seo',
    `--chrome-flags=${CHROME_FLAGS.join(' ')}`,
  ]
  if (port) args.push(`--port=${port}`)
  // Lighthouse sometimes loses the page's trace in headless Chromium
  // ("NO_NAVSTART", "NO_FCP" on a page that painted) and exits non-zero;
  // such a run measured nothing, so it is run again, twice at most.
  for (let attempt = 1; ; attempt++) {
    try {
      execFileSync('npx', args, { stdio: 'inherit', env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' } })
      break
    } catch (err) {
      if (attempt === 3) throw err
      console.error(`${name}, run ${run}: Lighthouse failed (attempt ${attempt}), running it again`)
    }
  }
  const lhr = JSON.parse(readFileSync(file, 'utf8'))
  const scores = Object.fromEntries(Object.entries(lhr.categories).map(([k, c]) => [k, Math.round(c.score * 100)]))
  if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) {
    throw new Error(`${name}: audited ${lhr.finalDisplayedUrl} instead of ${url} (redirected)`)
  }
  // Where the milliseconds go, for a score below target.
  const ms = (id) => Math.round(lhr.audits[id]?.numericValue ?? NaN)
  const metrics = { FCP: ms('first-contentful-paint'), LCP: ms('largest-contentful-paint'), TBT: ms('total-blocking-time'), SI: ms('speed-index') }
  return { name, scores, metrics, report: file }
}

function freePort() {
  return new Promise((ok) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const p = srv.address().port
      srv.close(() => ok(p))
    })
  })
}

// A confirmed account, signed in inside the browser on `port` so the browser
// itself stores the cookies: sign up and confirm through the dev mailbox over
// plain HTTP, then log in from a page of the app.
async function signIn(port) {
  const email = `lighthouse-${Date.now()}@exemplo.com.br`
  const password = 'Vet!Clube2026seguro'
  const post = (path, body) => fetch(base + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  const signup = await post('/api/auth/signup', { first_name: 'Lia', last_name: 'Farol', email, password })
  if (signup.status !== 201) throw new Error(`signup ${signup.status}`)
  let token
  for (let i = 0; i < 50 && !token; i++) {
    const { messages } = await (await fetch(`${base}/api/dev/mailbox`)).json()
    const mail = messages.find((m) => JSON.stringify(m.to).includes(email))
    const link = mail?.links?.find((l) => l.includes('/confirmar-email'))
    token = link && new URL(link).searchParams.get('token')
    if (!token) await new Promise((r) => setTimeout(r, 200))
  }
  if (!token) throw new Error('no confirmation mail')
  if (!(await post('/api/auth/confirm', { token })).ok) throw new Error('confirm failed')

  let browser
  for (let i = 0; !browser; i++) {
    try {
      browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`)
    } catch (err) {
      if (i > 50) throw err
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  try {
    const page = await browser.contexts()[0].newPage()
    await page.goto(`${base}/landing`)
    const status = await page.evaluate(
      async ([e, p]) => (await fetch('/api/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email: e, password: p }) })).status,
      [email, password],
    )
    if (status !== 200) throw new Error(`login ${status}`)
    // One visit of the home, as any returning member's device has made: it
    // keeps what the next start paints before the app's JavaScript (the
    // greeting, the persisted queries). Lighthouse keeps localStorage
    // between runs, so without this only the first run would start cold.
    await page.goto(`${base}/`)
    await page.getByText('Acesso rápido', { exact: true }).waitFor({ timeout: 60_000 })
    await page.waitForLoadState('networkidle')
    await page.close()
  } finally {
    await browser.close()
  }
}
