import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const webDir = resolve(import.meta.dirname, '..', '..')
const repoDir = resolve(webDir, '..')

export interface RunningServer {
  baseURL: string
  dataDir: string
  logFile: string
  stop: () => Promise<void>
}

/** A free TCP port on 127.0.0.1 (the kernel picks it). */
export function freePort(): Promise<number> {
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

async function waitHealthy(baseURL: string, child: ChildProcess, logFile: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`vetclube serve exited with ${child.exitCode}; see ${logFile}`)
    try {
      const res = await fetch(`${baseURL}/readyz`)
      if (res.ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`vetclube serve did not become ready within ${timeoutMs} ms; see ${logFile}`)
}

/**
 * Starts `bin/vetclube serve` the way production does by default: no
 * DATABASE_URL, so it starts its own PostgreSQL cluster under a fresh DATA_DIR,
 * serving web/dist. Extra env (e.g. GOOGLE_* for a local OIDC provider) is merged in.
 */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const binary = join(repoDir, 'bin', 'vetclube')
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run \`make build-go\``)
  if (!existsSync(join(webDir, 'dist', 'index.html'))) throw new Error('web/dist is missing: run `npm run build`')

  const port = await freePort()
  const baseURL = `http://127.0.0.1:${port}`
  const dataDir = mkdtempSync(join(tmpdir(), 'vetclube-e2e-'))
  const logFile = join(dataDir, 'server.log')
  const env: NodeJS.ProcessEnv = { ...process.env }
  delete env.DATABASE_URL
  Object.assign(env, {
    APP_ENV: 'development',
    HTTP_ADDR: `127.0.0.1:${port}`,
    PUBLIC_URL: baseURL,
    WEB_DIST: join(webDir, 'dist'),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Every browser test signs up from 127.0.0.1 against this one server:
    // the per-IP limits would otherwise throttle the suite, not a user.
    RATE_LIMIT_SIGNUPS_PER_IP: '10000',
    RATE_LIMIT_LOGINS_PER_IP: '10000',
    ...extraEnv,
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
    await waitHealthy(baseURL, child, logFile)
  } catch (err) {
    await stop().catch(() => {})
    throw err
  }
  return { baseURL, dataDir, logFile, stop }
}
