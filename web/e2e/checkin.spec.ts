import { expect, test } from '@playwright/test'
import { apiPost, signedInUser } from './support/users'

// Daily check-in from the home page: the card, the credit, the
// refusal of a second check-in, and the top-bar VetCoins badge of another tab
// updating live through the event stream (no reload, no shared state).
test('check-in from home updates the VetCoins badge live in another tab', async ({ context, request }) => {
  await signedInUser(context, request)
  const home = await context.newPage()
  const other = await context.newPage()
  await other.goto('/pontos')
  const otherBadge = other.locator('header a[href="/pontos"]')
  await expect(otherBadge).toContainText('0')
  await expect(other.getByTestId('pontos-total')).toHaveText('0')

  await home.goto('/')
  await expect(home.getByText('Progresso para bônus semanal (+100 VetCoins)')).toBeVisible()
  await expect(home.getByTestId('checkin-sequence')).toHaveText('0/7')
  await expect(home.getByRole('button', { name: 'Fazer check-in do dia 1' })).toBeVisible()

  await home.getByRole('button', { name: 'Fazer check-in (+5 VetCoins)' }).click()
  await expect(home.getByText('Check-in realizado!')).toBeVisible()
  await expect(home.getByTestId('checkin-sequence')).toHaveText('1/7')
  await expect(home.getByText('Check-in feito hoje!')).toBeVisible()
  await expect(home.getByTestId('checkin-countdown')).toHaveText(/Próximo check-in em \d+h \d+m/)
  await expect(home.getByRole('list', { name: 'Semana de check-in' }).getByLabel('Dia 1: feito')).toBeVisible()
  await expect(home.locator('header a[href="/pontos"]')).toContainText('5')

  // The other tab never asked: the stream brought the new balance and history.
  await expect(otherBadge).toContainText('5')
  await expect(other.getByTestId('pontos-total')).toHaveText('5')
  await expect(other.getByText('Check-in diário')).toBeVisible()

  const again = await apiPost(context, '/api/checkin', {})
  expect(again.status()).toBe(409)
  expect((await again.json()).error.message).toBe('Você já fez check-in hoje!')
})

test('sounds are real MP3 files', async ({ request }) => {
  for (const name of ['basic-success', 'celebration-fanfare']) {
    const res = await request.get(`/sounds/${name}.mp3`)
    expect(res.status()).toBe(200)
    const body = await res.body()
    expect(body.length).toBeGreaterThan(1000)
    // ID3 tag or an MPEG frame sync.
    expect(body.subarray(0, 3).toString() === 'ID3' || (body[0] === 0xff && (body[1]! & 0xe0) === 0xe0)).toBe(true)
  }
})
