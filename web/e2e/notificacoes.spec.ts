import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { apiPost, signInByApi, signedInUser } from './support/users'

// Notifications and Web Push against the real server: the push
// permission prompt, the bell fed by real producers (connection requests from
// the dev seed's demo vets, core/app/seed_connections.go) over the live event
// stream, and the service worker's push and notificationclick handlers in
// Chromium (a push delivered through the DevTools protocol).

const DEMO_VET_PASSWORD = 'Colega#Vet2026' // dev seed, core/app/seed_connections.go
const DEMO_VETS = [
  'ana.ribeiro',
  'bruno.carvalho',
  'camila.nunes',
  'diego.martins',
  'elisa.fonseca',
  'fabio.teixeira',
  'gabriela.lopes',
  'henrique.alves',
  'isabela.moreira',
  'joao.pereira',
  'larissa.souza',
  'marcos.vieira',
].map((name) => `${name}@vetclube.dev`)

async function myId(context: BrowserContext): Promise<string> {
  const res = await context.request.get('/api/auth/session')
  return ((await res.json()) as { user: { id: string } }).user.id
}

/** A demo vet, signed in its own browser context, asks `userId` to connect. */
async function requestConnection(browser: Browser, vetEmail: string, userId: string): Promise<void> {
  const vet = await browser.newContext({ baseURL: process.env.E2E_BASE_URL })
  try {
    await signInByApi(vet, { email: vetEmail, password: DEMO_VET_PASSWORD })
    const res = await apiPost(vet, '/api/connections', { user_id: userId })
    expect(res.ok(), await res.text()).toBe(true)
  } finally {
    await vet.close()
  }
}

const bell = (page: Page) => page.getByRole('banner').getByRole('button', { name: /^Notificações/ })
const badge = (page: Page) => page.getByTestId('notification-badge')
const panel = (page: Page) => page.getByRole('region', { name: 'Notificações' })
const prompt = (page: Page) => page.getByRole('region', { name: 'Ativar push neste aparelho' })

test.describe('push permission prompt', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test("appears 3 s after load and 'Agora não' hides it for the session", async ({ page, context, request }) => {
    await signedInUser(context, request)
    await page.clock.install()
    await page.goto('/')
    await expect(bell(page)).toBeVisible()
    // The subscription check (1 s) and the prompt's 3 s run on the page's clock.
    await page.clock.runFor(2_500)
    await expect(prompt(page)).toBeHidden()
    await page.clock.runFor(600)
    await expect(prompt(page)).toBeVisible()
    await expect(prompt(page).getByRole('heading', { name: 'Notificações' })).toBeVisible()
    await expect(prompt(page).getByText('Receba notificações sobre novos desafios, conexões e atualizações importantes')).toBeVisible()
    await expect(prompt(page).getByRole('button', { name: 'Permitir' })).toBeVisible()
    await expect(prompt(page).getByRole('button', { name: 'Fechar' })).toBeVisible()
    // Floating at the bottom right.
    const box = (await prompt(page).boundingBox())!
    expect(box.x + box.width).toBeGreaterThan(1280 - 40)
    expect(box.y + box.height).toBeGreaterThan(800 - 40)
    await expectNoSeriousA11yViolations(page, 'push permission prompt')

    await prompt(page).getByRole('button', { name: 'Agora não' }).click()
    await expect(prompt(page)).toBeHidden()

    // The rest of the session: not after a reload, not on another page.
    await page.reload()
    await expect(bell(page)).toBeVisible()
    await page.clock.runFor(10_000)
    await expect(prompt(page)).toBeHidden()
    await page.goto('/pontos')
    await page.clock.runFor(10_000)
    await expect(prompt(page)).toBeHidden()

    // A new tab of the same sign-in session does not ask again either.
    const tab = await context.newPage()
    await tab.clock.install()
    await tab.goto('/')
    await expect(bell(tab)).toBeVisible()
    await tab.clock.runFor(10_000)
    await expect(prompt(tab)).toBeHidden()
  })
})

// The card asks; it never hides what the member came to do ('Calcular dose').
for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test.describe(`push permission card at ${viewport.width} px`, () => {
    test.use({ viewport })

    test("never covers an action: 'Calcular dose' stays clear of it", async ({ page, context, request }) => {
      await signedInUser(context, request)
      await page.goto('/ferramentas/calculadoras')
      const card = prompt(page)
      await expect(card).toBeVisible({ timeout: 15_000 })
      const calc = page.getByRole('form', { name: 'Dose de medicamento' }).getByRole('button', { name: 'Calcular dose' })
      // Scrolled as far as the page goes: the room kept for the card lets the button come out from under it.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
      await calc.scrollIntoViewIfNeeded()
      const a = (await calc.boundingBox())!
      const b = (await card.boundingBox())!
      const overlaps = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
      expect(overlaps, `button ${JSON.stringify(a)} card ${JSON.stringify(b)}`).toBe(false)
      // And the button is the thing a tap at its centre reaches.
      const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x!, y!)?.closest('button')?.textContent ?? '', [a.x + a.width / 2, a.y + a.height / 2])
      expect(hit).toContain('Calcular dose')
      await expectNoSeriousA11yViolations(page, `calculadoras com o aviso de push (${viewport.width} px)`)
    })

    test('a toast shown while a dialog is open appears above it, and stays after it closes', async ({ page, context, request }) => {
      await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
      await signedInUser(context, request)
      await page.goto('/')
      await bell(page).click()
      await panel(page).getByRole('button', { name: 'Configurações de notificações' }).click()
      const dialog = page.getByRole('dialog', { name: 'Configurações de notificações' })
      await expect(dialog).toBeVisible()
      await expect(dialog.getByRole('switch', { name: 'Curtidas' })).toBeVisible()
      await expectNoSeriousA11yViolations(page, `configurações de notificações (${viewport.width} px)`)
      await dialog.getByRole('switch', { name: 'Curtidas' }).click()
      const toastBox = page.locator('[data-toaster] [role="status"]').filter({ hasText: 'Preferências atualizadas com sucesso' })
      await expect(toastBox).toBeVisible()
      // The toast region is in the top layer, shown after the dialog.
      expect(await page.locator('[data-toaster]').evaluate((el) => el.matches(':popover-open'))).toBe(true)
      const box = (await toastBox.boundingBox())!
      const clip = { x: box.x + 12, y: box.y + 12, width: Math.min(60, box.width - 24), height: 8 }
      // The same pixels with the dialog open and after it closed: nothing (no backdrop) lies over the toast.
      const withDialog = await page.screenshot({ clip, animations: 'disabled' })
      await dialog.getByRole('button', { name: 'Fechar' }).click()
      await expect(dialog).toBeHidden()
      await expect(toastBox).toBeVisible()
      const withoutDialog = await page.screenshot({ clip, animations: 'disabled' })
      expect(withDialog.equals(withoutDialog)).toBe(true)
    })
  })
}

test.describe('notification bell', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  test("ten requests show '9+'; 'Limpar todas' empties the list", async ({ page, context, request, browser }) => {
    test.setTimeout(120_000)
    await signedInUser(context, request)
    const me = await myId(context)
    await page.goto('/')
    await expect(bell(page)).toBeVisible()
    await expect(badge(page)).toBeHidden()

    for (const vet of DEMO_VETS.slice(0, 9)) await requestConnection(browser, vet, me)
    // Live, no reload: nine is still a number.
    await expect(badge(page)).toHaveText('9')
    await requestConnection(browser, DEMO_VETS[9]!, me)
    await expect(badge(page)).toHaveText('9+')
    await expect(bell(page)).toHaveAccessibleName(/^Notificações\s?9\+\s?não lidas$/)

    await bell(page).click()
    const list = panel(page).getByRole('list', { name: 'Lista de notificações' })
    await expect(list.getByTestId('notification-item')).toHaveCount(10)
    await expect(list.getByText('Nova solicitação de conexão')).toHaveCount(10)
    await expect(list.getByText('Ana Ribeiro quer se conectar com você')).toBeVisible()
    // The list scrolls inside its maximum height (max-h-96 = 24rem).
    const sizes = await list.evaluate((el) => ({ client: el.clientHeight, scroll: el.scrollHeight }))
    expect(sizes.client).toBeLessThanOrEqual(384)
    expect(sizes.scroll).toBeGreaterThan(sizes.client)
    await expectNoSeriousA11yViolations(page, 'notification dropdown')

    await panel(page).getByRole('button', { name: 'Limpar todas' }).click()
    await expect(panel(page).getByText('Nenhuma notificação no momento.')).toBeVisible()
    await expect(badge(page)).toBeHidden()
    const res = await context.request.get('/api/notifications?limit=50')
    expect(await res.json()).toMatchObject({ notifications: [], unread_count: 0 })
    await page.reload()
    await bell(page).click()
    await expect(panel(page).getByText('Nenhuma notificação no momento.')).toBeVisible()
  })

  test('a connection request appears live with Aceitar / Recusar and is answered from the dropdown', async ({ page, context, request, browser }) => {
    await signedInUser(context, request)
    const me = await myId(context)
    await page.goto('/')
    await bell(page).click()
    await expect(panel(page).getByText('Nenhuma notificação no momento.')).toBeVisible()

    await requestConnection(browser, DEMO_VETS[10]!, me)
    await requestConnection(browser, DEMO_VETS[11]!, me)
    // The open dropdown fills in live.
    const items = panel(page).getByTestId('notification-item')
    await expect(items).toHaveCount(2)
    await expect(badge(page)).toHaveText('2')
    const larissa = items.filter({ hasText: 'Larissa Souza quer se conectar com você' })
    const marcos = items.filter({ hasText: 'Marcos Vieira quer se conectar com você' })
    await expect(larissa.getByText('Larissa Souza', { exact: true })).toBeVisible()
    await expect(larissa.getByText('LS', { exact: true })).toBeVisible()

    await larissa.getByRole('button', { name: 'Aceitar' }).click()
    await expect(larissa.getByRole('button', { name: 'Aceitar' })).toBeHidden()
    await expect(page.getByRole('status').filter({ hasText: 'Conexão aceita!' })).toBeVisible()
    await expect(badge(page)).toHaveText('1')
    await marcos.getByRole('button', { name: 'Recusar' }).click()
    await expect(page.getByRole('status').filter({ hasText: 'Conexão rejeitada' })).toBeVisible()
    // A refused request takes its notice back; the accepted one stays, read, without buttons.
    await expect(marcos).toHaveCount(0)
    await expect(items).toHaveCount(1)
    await expect(badge(page)).toBeHidden()

    const list = (await (await context.request.get('/api/connections')).json()) as { connections: { user: { first_name: string } }[]; received: unknown[] }
    expect(list.connections.map((c) => c.user.first_name)).toEqual(['Larissa'])
    expect(list.received).toEqual([])

    // Deleting one removes it from the list.
    await larissa.getByRole('button', { name: /^Excluir notificação/ }).click()
    await expect(items).toHaveCount(0)
    await expect(panel(page).getByText('Nenhuma notificação no momento.')).toBeVisible()
  })
})

test.describe('service worker push and notification click', () => {
  test.use({ viewport: { width: 1280, height: 800 } })

  /**
   * Records, inside the worker, the tags whose showNotification has resolved.
   * Chromium's getNotifications drops a notification whose display is still in
   * flight when it is called (it syncs its store with the displayed set taken a
   * moment earlier), so reading the list before the display finished made the
   * tests flaky. The app's own handler runs unchanged; this only watches it.
   */
  async function watchShownTags(context: BrowserContext) {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))
    await worker.evaluate(() => {
      const sw = self as unknown as { shownTags?: string[]; registration: ServiceWorkerRegistration }
      if (sw.shownTags) return
      const shownTags: string[] = (sw.shownTags = [])
      const show = sw.registration.showNotification.bind(sw.registration)
      sw.registration.showNotification = (title: string, options?: NotificationOptions) =>
        show(title, options).then(() => void shownTags.push(options?.tag ?? ''))
    })
    return worker
  }

  /** Sends a push message to the page's service worker as a push service would, and waits until its notification is displayed. */
  async function deliverPush(page: Page, payload: { tag: string } & Record<string, unknown>) {
    const worker = await watchShownTags(page.context())
    const cdp = await page.context().newCDPSession(page)
    const registrationId = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
        const reg = registrations.find((r: { scopeURL: string; isDeleted: boolean }) => r.scopeURL === `${process.env.E2E_BASE_URL}/` && !r.isDeleted)
        if (reg) resolve(reg.registrationId)
      })
    })
    await cdp.send('ServiceWorker.enable')
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: process.env.E2E_BASE_URL!,
      registrationId: await registrationId,
      data: JSON.stringify(payload),
    })
    await expect
      .poll(() => worker.evaluate(() => (self as unknown as { shownTags: string[] }).shownTags))
      .toContain(payload.tag)
  }

  const shown = (page: Page) =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown })),
    )

  /** Clicks the shown notification with that tag, inside the worker (no OS notification center headless). */
  async function clickNotification(context: BrowserContext, tag: string) {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'))
    await worker.evaluate(async (t) => {
      // Worker-only globals, absent from the DOM typings this file is checked with.
      const sw = self as unknown as {
        registration: ServiceWorkerRegistration
        dispatchEvent: (e: Event) => boolean
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event
      }
      const [n] = await sw.registration.getNotifications({ tag: t })
      if (!n) throw new Error(`no notification ${t}`)
      sw.dispatchEvent(new sw.NotificationEvent('notificationclick', { notification: n }))
    }, tag)
  }

  test('a push is shown with its target; in front it closes after 5 s; a click navigates in the app', async ({ page, context, request }) => {
    await context.grantPermissions(['notifications'])
    await signedInUser(context, request)
    await page.goto('/')
    await page.evaluate(async () => void (await navigator.serviceWorker.ready))
    await expect(bell(page)).toBeVisible()
    // A marker that a full page load would wipe.
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1))

    await deliverPush(page, { title: 'Novo desafio', body: 'Um novo desafio está no ar', url: '/pontos', tag: 'push-e2e-1' })
    await expect.poll(() => shown(page)).toEqual([{ title: 'Novo desafio', body: 'Um novo desafio está no ar', tag: 'push-e2e-1', data: { url: '/pontos' } }])

    await clickNotification(context, 'push-e2e-1')
    await expect(page).toHaveURL(/\/pontos$/)
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(1)

    // Another push while the app is in front: gone after 5 s on its own.
    await deliverPush(page, { title: 'Em primeiro plano', body: 'Fecha sozinha', url: '/', tag: 'push-e2e-2' })
    await expect.poll(() => shown(page).then((l) => l.map((n) => n.tag))).toContain('push-e2e-2')
    const start = Date.now()
    await expect.poll(() => shown(page).then((l) => l.map((n) => n.tag)), { timeout: 15_000 }).not.toContain('push-e2e-2')
    expect(Date.now() - start).toBeGreaterThan(3_000)
  })

  test('a click to the same path with another query string reloads the page', async ({ page, context, request }) => {
    await context.grantPermissions(['notifications'])
    await signedInUser(context, request)
    await page.goto('/community?post=1')
    await page.evaluate(async () => void (await navigator.serviceWorker.ready))
    await expect(bell(page)).toBeVisible()
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1))

    await deliverPush(page, { title: 'Novo comentário', body: 'Ana comentou', url: '/community?post=2', tag: 'push-e2e-3' })
    await expect.poll(() => shown(page).then((l) => l.map((n) => n.tag))).toContain('push-e2e-3')
    await clickNotification(context, 'push-e2e-3')
    await expect(page).toHaveURL(/\/community\?post=2$/)
    await expect(bell(page)).toBeVisible()
    // A full load: the marker is gone.
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBeUndefined()
  })
})
