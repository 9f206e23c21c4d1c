import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from './e2e/support/browser'

// e2e/support/global-setup.ts starts the real Go server before the workers,
// so no webServer entry (and nothing to reuse: every run starts its own).
process.env.E2E_RUN_ID ??= `${Date.now()}-${process.pid}`

export default defineConfig({
  testDir: './e2e',
  outputDir: `.e2e-results/${process.env.E2E_RUN_ID}`,
  globalSetup: './e2e/support/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium', launchOptions: chromiumLaunchOptions } }],
})
