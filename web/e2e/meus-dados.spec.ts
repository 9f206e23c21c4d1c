import { readFile } from 'node:fs/promises'
import { expect, test } from '@playwright/test'
import { linkFrom, waitForMail } from './support/mailbox'
import { apiPost, signInByApi, signedInUser } from './support/users'

// The member's data (LGPD): a copy of everything, as a ZIP, and the account's
// deletion with its 30-day grace, cancelled by signing in again.
test.describe('Meus dados', () => {
  test('390 px: export requested, mailed and the ZIP downloaded', async ({ page, context, request }) => {
    test.setTimeout(90_000)
    await page.setViewportSize({ width: 390, height: 844 })
    const user = await signedInUser(context, request)
    await page.goto('/profile#meus-dados')
    const section = page.getByRole('region', { name: 'Meus dados' })
    await expect(section).toBeVisible({ timeout: 30_000 })
    await section.getByRole('button', { name: 'Exportar meus dados' }).click()
    await expect(page.getByText('Pedido recebido. Enviaremos um e-mail quando o arquivo estiver pronto.')).toBeVisible()

    const mail = await waitForMail(request, user.email, { subject: /Seus dados do VetClube estão prontos/, timeoutMs: 45_000 })
    const link = linkFrom(mail, '/api/me/data-exports/')
    expect(link).toMatch(/\/download$/)

    // The same request again the same day is refused, in pt-BR.
    const again = await apiPost(context, '/api/me/data-exports', {})
    expect(again.status()).toBe(429)

    await page.reload()
    const download = page.waitForEvent('download')
    await section.getByRole('link', { name: 'Baixar arquivo ZIP' }).click()
    const file = await download
    expect(file.suggestedFilename()).toMatch(/\.zip$/)
    const zip = await readFile((await file.path())!)
    expect(zip.subarray(0, 2).toString()).toBe('PK')
    // The archive names its areas (JSON per area) and holds the member's own e-mail, nobody else's.
    expect(zip.includes(Buffer.from('perfil'))).toBe(true)

    // Someone else cannot download it, even with the link.
    const other = await context.browser()!.newContext()
    const stranger = await signedInUser(other, request)
    expect(stranger.email).not.toBe(user.email)
    const res = await other.request.get(new URL(link).pathname)
    expect(res.status()).toBe(404)
    await other.close()
  })

  test('1280 px: deletion scheduled with the password, cancelled by signing in again', async ({ page, context, request }) => {
    test.setTimeout(90_000)
    await page.setViewportSize({ width: 1280, height: 900 })
    const user = await signedInUser(context, request)
    await page.goto('/profile#meus-dados')
    const section = page.getByRole('region', { name: 'Meus dados' })
    await section.getByRole('button', { name: 'Excluir minha conta' }).click({ timeout: 30_000 })
    const form = section.getByRole('form', { name: 'Excluir minha conta' })
    await form.getByLabel('Confirme com a sua senha').fill('senha-errada-123')
    await form.getByRole('button', { name: 'Confirmar exclusão' }).click()
    await expect(form.getByRole('alert')).toBeVisible()

    await form.getByLabel('Confirme com a sua senha').fill(user.password)
    await form.getByRole('button', { name: 'Confirmar exclusão' }).click()
    await expect(page).toHaveURL(/\/login/, { timeout: 30_000 })
    await expect(page.getByRole('status').filter({ hasText: 'A exclusão da sua conta foi agendada' })).toBeVisible()
    await waitForMail(request, user.email, { subject: /Exclusão da sua conta no VetClube agendada/ })

    // Every session ended: the old cookie no longer opens the profile's data.
    expect((await context.request.get('/api/me/data')).status()).toBe(401)

    await signInByApi(context, user)
    await waitForMail(request, user.email, { subject: /A exclusão da sua conta foi cancelada/ })
    await page.goto('/profile#meus-dados')
    await expect(page.getByRole('region', { name: 'Meus dados' }).getByRole('button', { name: 'Excluir minha conta' })).toBeVisible({ timeout: 30_000 })
    await expect(page.getByText(/A exclusão da sua conta está agendada/)).toHaveCount(0)
  })
})
