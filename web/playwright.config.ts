import { defineConfig, devices } from '@playwright/test'
import { chromiumLaunchOptions } from './e2e/support/browser'

// e2e/support/global-setup.ts starts the real Go server (its own PostgreSQL
// cluster in a fresh DATA_DIR) and exports E2E_BASE_URL before workers start.
// Several engineers run browser tests in this work tree at once: each run gets
// its own artifacts folder so one run's cleanup never deletes another's traces.
process.env.E2E_RUN_ID ??= `${Date.now()}-${process.pid}`

export default defineConfig({
  testDir: './e2e',
  outputDir: `.e2e-results/${process.env.E2E_RUN_ID}`,
  globalSetup: './e2e/support/global-setup.ts',
  fullyParallel: false,
  // Two shared cores: one worker keeps timings honest and the server calm.
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    trace: 'retain-on-failure',
    launchOptions: chromiumLaunchOptions,
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions } }],
})
