import { expect, test, type Page } from '@playwright/test'
import { signedInUser } from './support/users'

const ANDROID_UA = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36'
const IPHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'
const LINUX_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36'

// Headless Chromium never offers installation by itself, so the test fires the
// same `beforeinstallprompt` event Chrome fires, with the user's answer.
async function offerInstall(page: Page, outcome: 'accepted' | 'dismissed') {
  await page.evaluate((answer) => {
    const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
      prompt: () => Promise<void>
      userChoice: Promise<{ outcome: string; platform: string }>
    }
    event.prompt = async () => {}
    event.userChoice = Promise.resolve({ outcome: answer, platform: 'web' })
    window.dispatchEvent(event)
  }, outcome)
}

test.describe('install prompt on Android', () => {
  test.use({ userAgent: ANDROID_UA, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })

  test('shows the card, installs, then hides the card and the home install section', async ({ page, context, request }) => {
    await signedInUser(context, request)
    await page.goto('/')
    const installButton = page.getByRole('button', { name: 'Instalação Indisponível' })
    await expect(installButton).toBeDisabled()

    await offerInstall(page, 'accepted')
    const card = page.getByRole('region', { name: 'Instalar VetClube' })
    await expect(card).toBeVisible()
    await expect(card.getByText('Instale no seu Android')).toBeVisible()
    await expect(page.getByRole('button', { name: 'Instalar App' })).toBeEnabled()

    await card.getByRole('button', { name: 'Instalar Agora' }).click()
    await expect(page.getByText('App instalado com sucesso!')).toBeVisible()
    await expect(card).toBeHidden()
    await expect(page.getByRole('region', { name: 'Leve o VetClube no bolso' })).toBeHidden()
    expect(await page.evaluate(() => localStorage.getItem('pwa-installed'))).toBe('true')
  })

  test('a dismissal hides the card for 7 days; a cancelled install says so', async ({ page, context, request }) => {
    // Signed in: the home's install button, enabled once the offer is captured,
    // tells when the app has taken an offer while the card stays hidden.
    await signedInUser(context, request)
    await page.goto('/')
    const installButton = page.getByRole('button', { name: 'Instalar App' })
    await offerInstall(page, 'dismissed')
    const card = page.getByRole('region', { name: 'Instalar VetClube' })
    await expect(card).toBeVisible()
    await card.getByRole('button', { name: 'Instalar Agora' }).click()
    await expect(page.getByText('Instalação cancelada')).toBeVisible()

    await page.reload()
    await offerInstall(page, 'dismissed')
    await expect(card).toBeVisible()
    await card.getByRole('button', { name: 'Fechar' }).click()
    await expect(card).toBeHidden()
    const dismissedAt = Number(await page.evaluate(() => localStorage.getItem('pwa-install-dismissed-at')))
    expect(Date.now() - dismissedAt).toBeLessThan(60_000)

    await page.reload()
    await offerInstall(page, 'dismissed')
    // The card and the button read the same install state in the same render.
    await expect(installButton).toBeEnabled()
    await expect(card).toBeHidden()

    // Eight days later the card may show again.
    await page.evaluate(() => localStorage.setItem('pwa-install-dismissed-at', String(Date.now() - 8 * 24 * 3600 * 1000)))
    await page.reload()
    await offerInstall(page, 'dismissed')
    await expect(card).toBeVisible()
  })
})

test.describe('installing on an iPhone', () => {
  test.use({ userAgent: IPHONE_UA, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })

  test('the home install section explains Compartilhar → Adicionar à Tela de Início instead of a disabled button', async ({ page, context, request }) => {
    await signedInUser(context, request)
    await page.goto('/')
    await expect(page.getByRole('button', { name: 'Instalação Indisponível' })).toHaveCount(0)
    await page.getByRole('button', { name: 'Instalar no iPhone' }).click()
    const dialog = page.getByRole('dialog', { name: 'Instale o VetClube no iPhone' })
    await expect(dialog.getByRole('listitem')).toHaveText([/Toque em Compartilhar/, /Adicionar à Tela de Início/])
    await dialog.getByRole('button', { name: 'Entendi' }).click()
    await expect(dialog).toBeHidden()
  })
})

test.describe('install prompt elsewhere', () => {
  test.use({ userAgent: LINUX_UA })

  test('never shows on Linux even when the browser offers installation', async ({ page, context, request }) => {
    await signedInUser(context, request)
    await page.goto('/')
    await offerInstall(page, 'accepted')
    // The home's install button shows the offer was taken; the card, rendered from the same state, is not there.
    await expect(page.getByRole('button', { name: 'Instalar App' })).toBeEnabled()
    await expect(page.getByRole('region', { name: 'Instalar VetClube' })).toHaveCount(0)
  })
})

test.describe('lazy page retry', () => {
  // Without the service worker every chunk request reaches page.route.
  test.use({ serviceWorkers: 'block' })

  test('a page chunk that fails twice loads on the third try', async ({ page }) => {
  let failures = 0
  await page.route('**/assets/LandingPage-*.js', async (route) => {
    if (failures < 2) {
      failures++
      return route.abort('connectionreset')
    }
    return route.continue()
  })
  const started = Date.now()
  await page.goto('/landing')
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  expect(failures).toBe(2)
  // 1 s then 2 s between the tries.
  expect(Date.now() - started).toBeGreaterThanOrEqual(3000)
})
})
