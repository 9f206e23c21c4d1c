import type { Page } from '@playwright/test'
import { DEV_TOTP, devTOTP } from '../../../e2e-support/totp'

export { devTOTP } from '../../../e2e-support/totp'

/**
 * After "Entrar" on the backoffice's sign-in: a seeded staff account with
 * two-step verification (fixed development secret) is asked for its code,
 * computed here as an authenticator app would.
 */
export async function finishTwoStep(page: Page, email: string): Promise<void> {
  if (!DEV_TOTP[email]) return
  const field = page.getByRole('textbox', { name: 'Código de verificação' })
  await field.waitFor()
  await field.fill(await devTOTP(email))
  await page.getByRole('button', { name: 'Verificar' }).click()
}
