import { readFileSync } from 'node:fs'
import { expect, test, type Browser, type BrowserContext } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { apiPost, signedInUser, signInByApi } from './support/users'

// Dev seed (core/app/seed.go): the super admin may take every workflow step.
const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' }

async function csrf(context: BrowserContext): Promise<Record<string, string>> {
  const c = (await context.cookies()).find((k) => k.name === 'vc_csrf')
  return c ? { 'X-CSRF-Token': c.value } : {}
}

/** Publishes a one-seat event through the backoffice API and the real workflow. */
async function publishEvent(browser: Browser, slug: string, title: string) {
  const admin = await browser.newContext()
  await signInByApi(admin, SUPER_ADMIN)
  const day = new Date(Date.now() + 6 * 24 * 3600 * 1000)
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(day)
  const created = await apiPost(admin, '/api/admin/content/eventos', {
    slug,
    title,
    summary: 'Prática com vagas limitadas.',
    fields: {
      description: 'Uma tarde de prática com casos clínicos e correção individual.',
      event_type: 'Workshop',
      event_date: date,
      event_time: '14:00',
      end_time: '17:00',
      location: 'Sala 3, Centro de Treinamento VetClube',
      instructor: 'Dra. Beatriz Souza',
      price_text: 'Gratuito',
      max_participants: 1,
    },
  })
  expect(created.status(), await created.text()).toBe(201)
  let item = await created.json()
  for (const action of ['submit', 'approve', 'publish']) {
    const res = await admin.request.post(`/api/admin/content/eventos/${item.id}/actions/${action}`, {
      data: { version: item.version },
      headers: await csrf(admin),
    })
    expect(res.status(), await res.text()).toBe(200)
    item = await res.json()
  }
  await admin.close()
  return { id: item.id as string, date }
}

test('a user signs up, downloads the .ics, sees the seats drop and cancels; the person waiting gets the seat offer', async ({
  page,
  context,
  request,
  browser,
}) => {
  test.slow()
  const slug = `workshop-e2e-${Date.now()}`
  const title = 'Workshop de bandagens e imobilizações'
  const { id } = await publishEvent(browser, slug, title)

  await signedInUser(context, request)
  await page.goto('/eventos')
  await expect(page.getByRole('heading', { name: 'Eventos', level: 1 })).toBeVisible()
  const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: title }) })
  await expect(card.getByText('Workshop', { exact: true })).toHaveClass(/bg-blue-100/)
  await expect(card.getByText('14:00')).toBeVisible()
  await expect(card.getByText('1 vaga restante')).toBeVisible()
  await expect(card.getByText(/^\d{2} de [a-zç]+$/)).toBeVisible()

  await card.getByRole('link', { name: title }).click()
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible()
  await expect(page.getByText('Dra. Beatriz Souza')).toBeVisible()
  await expect(page.getByTestId('event-seats')).toHaveText('0 participantes · 1 vaga restante')
  await page.getByRole('button', { name: 'Participar' }).click()
  await expect(page.getByText('Você está participando deste evento.')).toBeVisible()
  await expect(page.getByTestId('event-seats')).toHaveText('1 participante · Esgotado')

  // 'Adicionar à agenda' downloads the event's calendar file.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Adicionar à agenda' }).click()])
  const ics = readFileSync((await download.path())!, 'utf8')
  expect(ics).toMatch(/^BEGIN:VCALENDAR\r\n/)
  expect(ics).toContain(`UID:${id}@vetclube\r\n`)
  expect(ics).toContain(`SUMMARY:${title}\r\n`)
  await expect(page.getByRole('link', { name: 'Google Agenda' })).toHaveAttribute('href', /calendar\.google\.com/)

  // Someone else finds it full and joins the waiting list.
  const other = await browser.newContext()
  const otherPage = await other.newPage()
  await signedInUser(other, other.request)
  await otherPage.goto(`/eventos/${slug}`)
  await expect(otherPage.getByTestId('event-seats')).toHaveText('1 participante · Esgotado')
  await otherPage.getByRole('button', { name: 'Entrar na lista de espera' }).click()
  await expect(otherPage.getByText(/Você está na lista de espera \(1º lugar\)/)).toBeVisible()

  // The first user cancels: the seat frees at once and is held for the person waiting.
  await page.getByRole('button', { name: 'Cancelar participação' }).click()
  // Giving up a seat is asked first.
  const confirm = page.getByRole('dialog', { name: 'Cancelar participação?' })
  await expect(confirm).toBeVisible()
  await expectNoSeriousA11yViolations(page, 'confirmação de cancelamento')
  await confirm.getByRole('button', { name: 'Sim, cancelar participação' }).click()
  await expect(confirm).toBeHidden()
  await expect(page.getByRole('button', { name: 'Participar' })).toHaveCount(0)
  await expect(page.getByTestId('event-seats')).toHaveText('0 participantes · Esgotado')

  // The person waiting is notified of the offer (Temporal's offer timer sends it).
  await expect
    .poll(
      async () => {
        const res = await other.request.get('/api/notifications')
        const body = await res.json()
        const n = (body.notifications ?? []).find((x: { title: string }) => x.title === 'Vaga disponível')
        return n ? `${n.type}|${n.link}|${n.data?.event_id}|${n.data?.offer_id ? 'offer' : ''}` : ''
      },
      { timeout: 30_000 },
    )
    .toBe(`event|/eventos/${slug}|${id}|offer`)
  // In the app: the bell lists the offer, and it opens the event page with the held seat.
  await otherPage.reload()
  await otherPage.getByRole('banner').getByRole('button', { name: /^Notificações/ }).click()
  const panel = otherPage.getByRole('region', { name: 'Notificações' })
  await expect(panel.getByText('Vaga disponível')).toBeVisible()
  await expect(panel.getByText(new RegExp(`Abriu uma vaga em .${title}.\\. Confirme sua participação até`))).toBeVisible()
  await panel.getByText('Vaga disponível').click()
  await expect(otherPage).toHaveURL(new RegExp(`/eventos/${slug}$`))
  await expect(otherPage.getByText(/Abriu uma vaga para você! Confirme até/)).toBeVisible()
  await otherPage.getByRole('button', { name: 'Participar' }).click()
  await expect(otherPage.getByText('Você está participando deste evento.')).toBeVisible()
  await expect(otherPage.getByTestId('event-seats')).toHaveText('1 participante · Esgotado')
  await other.close()
})

test('the home card shows the next event', async ({ page, context, request }) => {
  await signedInUser(context, request)
  await page.goto('/')
  const card = page.locator('[aria-labelledby="next-event-title"]')
  await expect(card.getByRole('heading', { name: 'Próximo Evento' })).toBeVisible()
  // The dev seed's first upcoming event (5 days ahead) unless a test published an earlier one.
  await expect(card.getByRole('link', { name: 'Ver evento' })).toHaveAttribute('href', /^\/eventos\//)
  await expect(card.getByText(/^\d{2} de [a-zç]+ · \d{2}:\d{2} · /)).toBeVisible()
})
