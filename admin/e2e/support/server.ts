import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

// The same approach as web/e2e/support/server.ts (copied, not imported: each
// app's tests stand alone): the real binary, its own PostgreSQL cluster.
const adminDir = resolve(import.meta.dirname, '..', '..')
const repoDir = resolve(adminDir, '..')

export interface RunningServer {
  baseURL: string
  logFile: string
  stop: () => Promise<void>
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer()
    srv.once('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address()
      const port = typeof address === 'object' && address ? address.port : 0
      srv.close(() => resolvePort(port))
    })
  })
}

async function waitReady(baseURL: string, child: ChildProcess, logFile: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vetclube serve exited with ${child.exitCode}; see ${logFile}`)
    try {
      if ((await fetch(`${baseURL}/readyz`)).ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`vetclube serve did not become ready within ${timeoutMs} ms; see ${logFile}`)
}

/**
 * Starts `bin/vetclube serve` in development mode (dev seed: super admin and
 * demo user) with no DATABASE_URL, so it runs a private PostgreSQL cluster in
 * a fresh DATA_DIR, serving admin/dist under /backoffice/.
 */
export async function startServer(): Promise<RunningServer> {
  const binary = join(repoDir, 'bin', 'vetclube')
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run \`make build-go\``)
  if (!existsSync(join(adminDir, 'dist', 'index.html'))) throw new Error('admin/dist is missing: run `npm run build`')

  const port = await freePort()
  const baseURL = `http://127.0.0.1:${port}`
  const dataDir = mkdtempSync(join(tmpdir(), 'vetclube-admin-e2e-'))
  const emptyWebDist = join(dataDir, 'web-dist')
  mkdirSync(emptyWebDist)
  const logFile = join(dataDir, 'server.log')
  const env: NodeJS.ProcessEnv = { ...process.env }
  delete env.DATABASE_URL
  Object.assign(env, {
    APP_ENV: 'development',
    HTTP_ADDR: `127.0.0.1:${port}`,
    PUBLIC_URL: baseURL,
    ADMIN_DIST: join(adminDir, 'dist'),
    WEB_DIST: emptyWebDist,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  })
  const log = createWriteStream(logFile)
  const child = spawn(binary, ['serve'], { cwd: repoDir, env, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout?.pipe(log)
  child.stderr?.pipe(log)

  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    }
    log.end()
    if (!process.env.E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    await waitReady(baseURL, child, logFile)
  } catch (err) {
    await stop().catch(() => {})
    throw err
  }
  return { baseURL, logFile, stop }
}
