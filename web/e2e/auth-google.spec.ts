import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { join, resolve } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import { expect, test } from '@playwright/test'
import { freePort, startServer, type RunningServer } from './support/server'

// Google sign-in end to end: the real server, configured with GOOGLE_* pointing
// at cmd/devoidc (a local OpenID Connect provider standing in for Google), and
// the real browser following every redirect.

const repoDir = resolve(import.meta.dirname, '..', '..')
const devoidcBinary = join(repoDir, 'bin', 'devoidc')

let provider: ChildProcess | undefined
let server: RunningServer | undefined

async function startProvider(): Promise<Record<string, string>> {
  // Incremental: a no-op when the binary is current.
  const build = spawnSync('go', ['build', '-o', devoidcBinary, './cmd/devoidc'], { cwd: repoDir, encoding: 'utf8' })
  if (build.status !== 0) throw new Error(`go build ./cmd/devoidc failed: ${build.stderr}`)
  const port = await freePort()
  provider = spawn(devoidcBinary, ['-addr', `127.0.0.1:${port}`, '-format', 'json', '-email', 'gabriela.google@exemplo.com.br'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const lines = createInterface({ input: provider.stdout! })
  const first = await new Promise<string>((resolveLine, reject) => {
    lines.once('line', resolveLine)
    provider!.once('exit', (code) => reject(new Error(`devoidc exited with ${code}`)))
  })
  return JSON.parse(first) as Record<string, string>
}

test.describe('Google sign-in through the local OIDC provider', () => {
  test.beforeAll(async () => {
    test.setTimeout(120_000)
    const googleEnv = await startProvider()
    server = await startServer(googleEnv)
  })

  test.afterAll(async () => {
    await server?.stop()
    if (provider && provider.exitCode === null) {
      const exited = new Promise((r) => provider!.once('exit', r))
      provider.kill('SIGTERM')
      await exited
    }
  })

  test('signs in with Google and returns to the wanted page with the profile from the claims', async ({ page }) => {
    await page.goto(`${server!.baseURL}/profile`)
    await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile$/)
    const google = page.getByRole('link', { name: 'Entrar com Google' })
    await expect(google).toHaveAttribute('href', '/api/auth/google/start?redirect=%2Fprofile')
    await page.mouse.move(0, 0)
    const axe = await new AxeBuilder({ page }).analyze()
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([])

    await google.click()
    await expect(page).toHaveURL(`${server!.baseURL}/profile`)
    // given_name / family_name became the profile's names (a first Google sign-in creates the profile from the claims).
    await expect(page.getByRole('heading', { level: 1, name: /Gabriela Google/ })).toBeVisible()
    // The profile's details (Segurança's e-mail form names the address too).
    await expect(page.getByRole('definition').filter({ hasText: 'gabriela.google@exemplo.com.br' })).toBeVisible()
    const session = await page.request.get(`${server!.baseURL}/api/auth/session`)
    expect((await session.json()).user.provider).toBe('google')
  })
})
