// The browser tests of web/ and admin/ share this module: both drive the real
// binary, each run on its own PostgreSQL cluster in a fresh DATA_DIR (no
// DATABASE_URL), with the embedded Temporal dev server and the built plugins.
import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const repoDir = resolve(import.meta.dirname, '..')

export interface RunningServer {
  baseURL: string
  dataDir: string
  logFile: string
  stop: () => Promise<void>
}

export interface ServerOptions {
  /** The built app the server serves at /: web/dist, or none (an empty folder). */
  webDist?: string
  /** The built backoffice it serves under /backoffice/. */
  adminDist?: string
  /** Merged into the server's environment last (e.g. GOOGLE_* for a local OIDC provider). */
  env?: Record<string, string>
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

class ServerExitedError extends Error {}

/** The last lines of the server's log, so a failed start says why in CI's output. */
function logTail(logFile: string, lines = 40): string {
  try {
    return readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')
  } catch {
    return '(no log)'
  }
}

async function waitReady(baseURL: string, child: ChildProcess, logFile: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new ServerExitedError(`vetclube serve exited with ${child.exitCode}; its log ends with:\n${logTail(logFile)}`)
    }
    try {
      const res = await fetch(`${baseURL}/readyz`, { signal: AbortSignal.timeout(5_000) })
      if (res.ok) return
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error(`vetclube serve did not become ready within ${timeoutMs} ms; its log ends with:\n${logTail(logFile)}`)
}

/**
 * Starts `bin/vetclube serve` in development mode (the dev seed's accounts and
 * content). The HTTP port is picked here and released before the server binds
 * it, so another process can take it first: a server that exits while starting
 * is started once more on a new port and data directory, after its log is shown.
 */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  try {
    return await startServerOnce(options)
  } catch (err) {
    if (!(err instanceof ServerExitedError)) throw err
    console.warn(`${err.message}\nstarting the server once more`)
    return startServerOnce(options)
  }
}

async function startServerOnce(options: ServerOptions): Promise<RunningServer> {
  const binary = join(repoDir, 'bin', 'vetclube')
  if (!existsSync(binary)) throw new Error(`${binary} is missing: run \`make build-go\``)
  for (const dist of [options.webDist, options.adminDist]) {
    if (dist && !existsSync(join(dist, 'index.html'))) throw new Error(`${dist} is missing: run \`npm run build\``)
  }

  const port = await freePort()
  const baseURL = `http://127.0.0.1:${port}`
  const dataDir = mkdtempSync(join(tmpdir(), 'vetclube-e2e-'))
  const logFile = join(dataDir, 'server.log')
  let webDist = options.webDist
  if (!webDist) {
    webDist = join(dataDir, 'web-dist')
    mkdirSync(webDist)
  }
  const env: NodeJS.ProcessEnv = { ...process.env }
  delete env.DATABASE_URL
  Object.assign(env, {
    APP_ENV: 'development',
    HTTP_ADDR: `127.0.0.1:${port}`,
    PUBLIC_URL: baseURL,
    WEB_DIST: webDist,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // Every browser test signs up and in from 127.0.0.1 against this one
    // server: the per-IP limits would otherwise throttle the suite, not a user.
    RATE_LIMIT_SIGNUPS_PER_IP: '10000',
    RATE_LIMIT_LOGINS_PER_IP: '10000',
    // The dev seed's demo clips (ffmpeg + transcoding) would load the machine
    // during every run; browser tests upload the media they need.
    DEMO_MEDIA: 'false',
    ...(options.adminDist ? { ADMIN_DIST: options.adminDist } : {}),
    ...options.env,
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
  return { baseURL, dataDir, logFile, stop }
}
