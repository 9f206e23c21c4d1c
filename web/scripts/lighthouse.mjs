// `make bench-web`: Lighthouse 12.8.2 on the mobile profile (its default:
// Moto G Power emulation, simulated slow 4G, 4x CPU slowdown) in Debian's
// Chromium, against the real server serving web/dist. Audits the landing page
// as a visitor and the home dashboard as a signed-in user; prints the scores
// and fails below the targets (performance 95, accessibility 100).
import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, existsSync, mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const LIGHTHOUSE = 'lighthouse@12.8.2'
const TARGETS = { performance: 95, accessibility: 100 }
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
const stop = () => {
  server.kill('SIGTERM')
  rmSync(dataDir, { recursive: true, force: true })
}

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) break
    } catch {}
    if (i > 300) throw new Error('server did not become ready')
    await new Promise((r) => setTimeout(r, 200))
  }

  const cookie = await signedInCookie()
  const results = []
  results.push(audit('landing (visitor)', `${base}/landing`, null))
  results.push(audit('home (signed in)', `${base}/`, cookie))

  let failed = false
  console.log('\nLighthouse 12.8.2, mobile profile')
  for (const r of results) {
    const line = Object.entries(r.scores).map(([k, v]) => `${k} ${v}`).join(', ')
    console.log(`  ${r.name}: ${line}   (report ${r.report})`)
    for (const [k, min] of Object.entries(TARGETS)) if (r.scores[k] < min) failed = true
  }
  if (failed) {
    console.error(`below target (performance ≥ ${TARGETS.performance}, accessibility ≥ ${TARGETS.accessibility})`)
    process.exitCode = 1
  }
} finally {
  stop()
}

function audit(name, url, cookieHeader) {
  const file = join(outDir, `${name.replace(/\W+/g, '-')}.json`)
  const args = [
    '--yes',
    LIGHTHOUSE,
    url,
    '--quiet',
    '--output=json',
    `--output-path=${file}`,
    '--only-categories=performance,accessibility,best-practices,seo',
    '--chrome-flags=--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync',
  ]
  if (cookieHeader) args.push(`--extra-headers=${JSON.stringify({ Cookie: cookieHeader })}`)
  execFileSync('npx', args, { stdio: 'inherit', env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' } })
  const lhr = JSON.parse(readFileSync(file, 'utf8'))
  const scores = Object.fromEntries(Object.entries(lhr.categories).map(([k, c]) => [k, Math.round(c.score * 100)]))
  return { name, scores, report: file }
}

// A confirmed, signed-in account: sign up, confirm through the dev mailbox, log in.
async function signedInCookie() {
  const jar = new Map()
  const call = async (method, path, body) => {
    const headers = { 'Content-Type': 'application/json', Cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') }
    if (jar.has('vc_csrf')) headers['X-CSRF-Token'] = jar.get('vc_csrf')
    const res = await fetch(base + path, { method, headers, body: body ? JSON.stringify(body) : undefined })
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const eq = pair.indexOf('=')
      jar.set(pair.slice(0, eq), pair.slice(eq + 1))
    }
    return res
  }
  const email = `lighthouse-${Date.now()}@exemplo.com.br`
  const password = 'Vet!Clube2026seguro'
  await call('GET', '/api/auth/session')
  const signup = await call('POST', '/api/auth/signup', { first_name: 'Lia', last_name: 'Farol', email, password })
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
  if (!(await call('POST', '/api/auth/confirm', { token })).ok) throw new Error('confirm failed')
  if (!(await call('POST', '/api/auth/login', { email, password })).ok) throw new Error('login failed')
  // The access cookie lasts ~15 min, longer than the audit.
  return [...jar].map(([k, v]) => `${k}=${v}`).join('; ')
}
