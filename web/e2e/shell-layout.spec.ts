import { expect, test } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { signedInUser } from './support/users'

test.describe('signed-in shell at 1280 px', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test('home, sidebar, active entries, collapse with Ctrl+B kept after reload', async ({ page, context, request }) => {
    await signedInUser(context, request, { firstName: 'Beatriz', lastName: 'Camargo' })
    await page.goto('/')
    await expect(page.getByText('Bem-vindo(a), Beatriz Camargo!')).toBeVisible()

    const sidebar = page.getByRole('navigation', { name: 'Menu principal' })
    await expect(sidebar).toBeVisible()
    await expect(page.getByRole('navigation', { name: 'Navegação inferior' })).toBeHidden()
    // The spec's entries first, then the 'Comunidade' group (feed, news, events, connections).
    const labels = await sidebar.getByRole('list').first().getByRole('link').allInnerTexts()
    expect(labels).toEqual([
      'Início',
      'VetClube IA',
      'Oportunidades',
      'Conteúdos Exclusivos',
      'Cursos',
      'Desafios',
      'Ferramentas',
      'Indique e Ganhe',
      'Planos',
    ])
    expect(await sidebar.getByRole('list', { name: 'Comunidade' }).getByRole('link').allInnerTexts()).toEqual(['Feed', 'Notícias', 'Eventos', 'Conexões'])
    await expect(sidebar.getByRole('link', { name: 'Início' })).toHaveAttribute('aria-current', 'page')

    // Footer: name, 'Ver Perfil', theme toggle; no 'Sair' in the desktop sidebar.
    const aside = page.getByRole('complementary', { name: 'Barra lateral' })
    await expect(aside.getByText('Beatriz Camargo')).toBeVisible()
    await expect(aside.getByRole('link', { name: 'Ver Perfil' })).toHaveAttribute('href', '/profile')
    await expect(aside.getByRole('button', { name: /Modo (Claro|Escuro)/ })).toBeVisible()
    await expect(aside.getByRole('button', { name: 'Sair' })).toHaveCount(0)

    // Top bar.
    await expect(page.getByRole('link', { name: '0 VetCoins' })).toHaveAttribute('href', '/pontos')
    await expect(page.getByRole('button', { name: 'Notificações' })).toBeVisible()
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sair' })).toBeVisible()

    // A nested route activates its entry only.
    await sidebar.getByRole('link', { name: 'Ferramentas' }).click()
    await expect(page).toHaveURL(/\/ferramentas$/)
    await page.goto('/ferramentas/calculadoras')
    await expect(page.getByRole('heading', { name: 'Calculadoras Veterinárias' })).toBeVisible()
    await expect(sidebar.getByRole('link', { name: 'Ferramentas' })).toHaveAttribute('aria-current', 'page')
    await expect(sidebar.getByRole('link', { name: 'Início' })).not.toHaveAttribute('aria-current', 'page')
    await page.goto('/desafios')
    await expect(page.getByRole('heading', { name: 'Desafios', level: 1 })).toBeVisible()
    await expect(sidebar.getByRole('link', { name: 'Desafios' })).toHaveAttribute('aria-current', 'page')

    // Ctrl+B collapses to the 3rem icon rail; the cookie keeps it for the next visit.
    expect((await aside.boundingBox())?.width).toBe(256)
    await page.keyboard.press('Control+b')
    await expect.poll(async () => (await aside.boundingBox())?.width).toBe(48)
    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state')
    expect(cookie?.value).toBe('false')
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(6.9 * 24 * 3600)
    await page.reload()
    await expect.poll(async () => (await page.getByRole('complementary', { name: 'Barra lateral' }).boundingBox())?.width).toBe(48)
    await page.keyboard.press('Control+b')
    await expect.poll(async () => (await aside.boundingBox())?.width).toBe(256)
  })

  test('profile-completeness banner links to the edit page', async ({ page, context, request }) => {
    await signedInUser(context, request)
    await page.goto('/')
    const banner = page.getByRole('region', { name: 'Complete seu perfil' })
    await expect(banner).toBeVisible()
    await expect(banner.getByRole('link', { name: 'Completar perfil' })).toHaveAttribute('href', '/profile/edit')
    // The browser suite shares one database: another spec may have published an upcoming event,
    // so the card shows either its empty text or that event (both states are unit-tested).
    const nextEvent = page.getByRole('region', { name: 'Próximo Evento' })
    await expect(nextEvent.getByText('Nenhum evento próximo').or(nextEvent.getByRole('link', { name: 'Ver evento' }))).toBeVisible()
    const exclusive = page.getByRole('region', { name: 'Conteúdo Exclusivo' })
    await expect(
      exclusive.getByText('Nenhum conteúdo exclusivo disponível no momento. Novos vídeos em breve.').or(exclusive.getByRole('link', { name: /^Assistir: / })),
    ).toBeVisible()
    await expect(page.getByRole('link', { name: 'Iniciar Chat' })).toHaveAttribute('href', '/vetclube-ia')
    await expect(page.getByText('Novo', { exact: true })).toBeVisible()
  })

  test('theme is kept after reload and applied before the app runs', async ({ page, context, request }) => {
    await signedInUser(context, request)
    await page.emulateMedia({ colorScheme: 'light' })
    await page.goto('/')
    const aside = page.getByRole('complementary', { name: 'Barra lateral' })
    await aside.getByRole('button', { name: 'Modo Escuro' }).click()
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark')
    await expect(aside.getByRole('button', { name: 'Modo Claro' })).toBeVisible()

    await page.reload()
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
    await expect(aside.getByRole('button', { name: 'Modo Claro' })).toBeVisible()

    // With the app bundle blocked, only /theme-init.js runs: the theme is already there.
    await page.route('**/assets/*.js', (route) => route.abort())
    await page.reload()
    await expect(page.locator('html')).toHaveClass(/\bdark\b/)
  })

  test('sign out from the top bar goes to /login and guards again', async ({ page, context, request }) => {
    await signedInUser(context, request)
    await page.goto('/')
    await page.getByRole('banner').getByRole('button', { name: 'Sair' }).click()
    await expect(page).toHaveURL(/\/login$/)
    await expect(page.getByText('Logout realizado com sucesso!')).toBeVisible()
    await page.goto('/profile')
    await expect(page).toHaveURL(/\/login\?redirect=%2Fprofile$/)
  })
})

test.describe('signed-in shell at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })

  test('bottom nav, drawer closing on navigation, top bar hidden on the AI route', async ({ page, context, request }) => {
    await signedInUser(context, request, { firstName: 'Caio', lastName: 'Prado' })
    await page.goto('/')
    await expect(page.getByText('Bem-vindo(a), Caio Prado!')).toBeVisible()

    const bottom = page.getByRole('navigation', { name: 'Navegação inferior' })
    await expect(bottom).toBeVisible()
    expect(await bottom.getByRole('link').allInnerTexts()).toEqual(['Início', 'Feed', 'VetClube IA', 'Cursos', 'Perfil'])
    await expect(page.getByRole('complementary', { name: 'Barra lateral' })).toBeHidden()
    // No theme toggle in the top bar on mobile.
    await expect(page.getByRole('banner').getByRole('button', { name: /Modo (Claro|Escuro)/ })).toBeHidden()

    await page.getByRole('button', { name: 'Alternar menu lateral' }).click()
    const drawer = page.getByRole('dialog', { name: 'Menu' })
    await expect(drawer).toBeVisible()
    const box = await drawer.boundingBox()
    expect(box?.width).toBe(288)
    await expect(drawer.getByRole('button', { name: 'Sair' })).toBeVisible()
    await drawer.getByRole('link', { name: 'Cursos' }).click()
    await expect(page).toHaveURL(/\/cursos$/)
    await expect(drawer).toBeHidden()
    await expect(bottom.getByRole('link', { name: 'Cursos' })).toHaveAttribute('aria-current', 'page')

    await bottom.getByRole('link', { name: 'VetClube IA' }).click()
    await expect(page).toHaveURL(/\/vetclube-ia$/)
    await expect(page.getByRole('banner')).toBeHidden()
    await bottom.getByRole('link', { name: 'Início' }).click()
    await expect(page.getByRole('banner')).toBeVisible()
  })
})

test.describe('the header at a phone width', () => {
  for (const width of [390, 320]) {
    test(`offline at ${width} px, the banner covers no button of the top bar, and 'Sair' fits`, async ({ page, context, request }) => {
      await page.setViewportSize({ width, height: 800 })
      await signedInUser(context, request, { firstName: 'Davi', lastName: 'Souza' })
      await page.goto('/')
      await expect(page.getByText('Bem-vindo(a), Davi Souza!')).toBeVisible()
      const header = page.getByRole('banner')
      const controls = [
        header.getByRole('button', { name: 'Alternar menu lateral' }),
        header.getByRole('link', { name: /VetCoins/ }),
        header.getByRole('button', { name: 'Notificações' }),
        header.getByRole('button', { name: 'Sair' }),
      ]
      const reachable = async () => {
        for (const control of controls) {
          const box = (await control.boundingBox())!
          expect(box.x, 'inside the screen on the left').toBeGreaterThanOrEqual(0)
          expect(box.x + box.width, 'inside the screen on the right').toBeLessThanOrEqual(width)
          // What a tap at the control's centre reaches is the control itself.
          const hit = await page.evaluate(
            ({ x, y }) => document.elementFromPoint(x, y)?.closest('a,button')?.textContent ?? null,
            { x: box.x + box.width / 2, y: box.y + box.height / 2 },
          )
          expect(hit).toBe(await control.textContent())
        }
      }
      await reachable()
      await context.setOffline(true)
      await expect(page.getByText('Você está offline. Algumas funcionalidades podem não estar disponíveis.')).toBeVisible()
      await reachable()
      const banner = (await page.getByText('Você está offline.', { exact: false }).boundingBox())!
      expect((await header.boundingBox())!.y).toBeGreaterThanOrEqual(banner.y + banner.height - 1)
      await header.getByRole('button', { name: 'Alternar menu lateral' }).click()
      await expect(page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Fechar menu' })).toBeVisible()
      const close = (await page.getByRole('button', { name: 'Fechar menu' }).boundingBox())!
      expect(close.y).toBeGreaterThanOrEqual(banner.y + banner.height - 1)
      await context.setOffline(false)
    })
  }
})

test.describe('the Premium trial', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test('a new account sees its trial days in the top bar and on /pricing', async ({ page, context, request }) => {
    await signedInUser(context, request)
    await page.goto('/')
    const badge = page.getByRole('banner').getByRole('link', { name: 'Premium grátis: 7 dias restantes' })
    await expect(badge).toBeVisible()
    await badge.click()
    await expect(page).toHaveURL(/\/pricing$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Planos' })).toBeVisible()
    await expect(page.getByRole('heading', { level: 2, name: 'Premium grátis: 7 dias restantes' })).toBeVisible()
    await expect(page.getByRole('region', { name: 'O que o Premium inclui' }).getByRole('listitem')).toHaveText(['Pacientes ilimitados', 'Todos os desafios profissionais', 'Consultas à IA sem o limite do teste', 'Todos os cursos e certificados'])
    await expectNoSeriousA11yViolations(page, 'pricing')
  })
})

test.describe('connectivity and service worker', () => {
  test('offline banner, then the restored banner for 5 s', async ({ page, context }) => {
    await page.goto('/landing')
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await context.setOffline(true)
    const offline = page.getByText('Você está offline. Algumas funcionalidades podem não estar disponíveis.')
    await expect(offline).toBeVisible()
    await context.setOffline(false)
    const restored = page.getByText('Conexão restaurada! Você está online novamente.')
    await expect(restored).toBeVisible()
    await expect(offline).toBeHidden()
    await page.waitForTimeout(4000)
    await expect(restored).toBeVisible()
    await expect(restored).toBeHidden({ timeout: 3000 })
  })

  test('a reload without signal keeps a signed-in user in the app with the last data; back online it checks again', async ({ page, context, request }) => {
    await signedInUser(context, request, { firstName: 'Elisa', lastName: 'Ramos' })
    await page.goto('/')
    await expect(page.getByText('Bem-vindo(a), Elisa Ramos!')).toBeVisible()
    await page.evaluate(async () => void (await navigator.serviceWorker.ready))
    // The cache snapshot is written a second after the page settles.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('vc-query-cache')?.includes('Elisa') ?? false)).toBe(true)

    await context.setOffline(true)
    await page.reload()
    await expect(page.getByText('Você está offline. Algumas funcionalidades podem não estar disponíveis.')).toBeVisible()
    await expect(page.getByText('Bem-vindo(a), Elisa Ramos!')).toBeVisible()
    await expect(page).toHaveURL(/\/$/)
    await expect(page.getByRole('banner').getByRole('button', { name: 'Sair' })).toBeVisible()

    const checked = page.waitForResponse((r) => r.url().endsWith('/api/auth/session'))
    await context.setOffline(false)
    expect((await checked).status()).toBe(200)
    await expect(page.getByText('Conexão restaurada! Você está online novamente.')).toBeVisible()
    await expect(page).toHaveURL(/\/$/)
  })

  test('without signal the profile names its specialties, never their codes', async ({ page, context, request }) => {
    await signedInUser(context, request, { firstName: 'Gina', lastName: 'Melo' })
    const csrf = (await context.cookies()).find((c) => c.name === 'vc_csrf')!.value
    const saved = await context.request.put('/api/profile', { data: { first_name: 'Gina', last_name: 'Melo', specialties: ['clinica_geral', 'animais_silvestres'] }, headers: { 'X-CSRF-Token': csrf } })
    expect(saved.status(), await saved.text()).toBe(200)
    await page.goto('/')
    await expect(page.getByText('Bem-vindo(a), Gina Melo!')).toBeVisible()
    await page.evaluate(async () => void (await navigator.serviceWorker.ready))
    // The start prefetches the labels a few seconds in; the snapshot follows.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('vc-query-cache')?.includes('Clínica Geral') ?? false), { timeout: 15_000 }).toBe(true)
    await context.setOffline(true)
    await page.reload()
    await page.getByRole('link', { name: 'Ver Perfil' }).first().click().catch(async () => page.goto('/profile'))
    await expect(page).toHaveURL(/\/profile$/)
    await expect(page.getByText('Clínica Geral')).toBeVisible()
    await expect(page.getByText('Animais Silvestres')).toBeVisible()
    await expect(page.getByText('clinica_geral')).toHaveCount(0)
    await context.setOffline(false)
  })

  test('after a sign-out the next reload without signal does not open the app', async ({ page, context, request }) => {
    await signedInUser(context, request, { firstName: 'Fabio', lastName: 'Lins' })
    await page.goto('/')
    await expect(page.getByText('Bem-vindo(a), Fabio Lins!')).toBeVisible()
    await page.evaluate(async () => void (await navigator.serviceWorker.ready))
    await page.getByRole('banner').getByRole('button', { name: 'Sair' }).click()
    await expect(page).toHaveURL(/\/login/)
    await context.setOffline(true)
    await page.goto('/').catch(() => undefined)
    await expect(page.getByText('Bem-vindo(a), Fabio Lins!')).toHaveCount(0)
    expect(await page.evaluate(() => localStorage.getItem('vc-last-session-user'))).toBeNull()
    await context.setOffline(false)
  })

  test('the service worker /sw-unified.js is registered and controls the page', async ({ page }) => {
    await page.goto('/landing')
    const scriptURL = await page.evaluate(async () => (await navigator.serviceWorker.ready).active?.scriptURL)
    expect(scriptURL).toMatch(/\/sw-unified\.js$/)
    const manifest = await page.evaluate(async () => {
      const href = document.querySelector('link[rel="manifest"]')?.getAttribute('href')
      return href ? (await fetch(href)).json() : null
    })
    expect(manifest).toMatchObject({ name: 'VetClube', display: 'standalone', start_url: '/' })
    expect(manifest.icons.map((i: { sizes: string }) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']))
  })
})

test.describe('accessibility of the shell screens', () => {
  test('landing, not-found and subscription-success have no serious violations', async ({ page }) => {
    for (const path of ['/landing', '/nao-existe', '/subscription-success']) {
      await page.goto(path)
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()
      await expectNoSeriousA11yViolations(page, path)
    }
  })

  test('home, courses and a coming-soon page, light and dark, desktop and mobile', async ({ page, context, request }) => {
    // Twelve pages and twelve axe scans: on a busy machine that outgrows the
    // default 60 s budget without anything being stuck.
    test.slow()
    await signedInUser(context, request)
    for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
      await page.setViewportSize(viewport)
      for (const theme of ['light', 'dark']) {
        await page.goto('/landing')
        await page.evaluate((t) => localStorage.setItem('theme', t), theme)
        for (const path of ['/', '/cursos', '/desafios']) {
          await page.goto(path)
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
          await expect(page.getByText('Carregando...')).toHaveCount(0)
          await expectNoSeriousA11yViolations(page, `${path} ${theme} ${viewport.width}px`)
        }
      }
    }
  })
})
