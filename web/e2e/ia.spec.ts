import { expect, test } from '@playwright/test'
import { apiPost, signedInUser } from './support/users'
import { expectNoSeriousA11yViolations } from './support/a11y'

// VetClube IA in the demonstration mode (no OPENAI_BASE_URL: the server
// starts its in-repo OpenAI-compatible server, which composes answers from
// the VetClube passages it is given). A trial member asks, sees the answer
// stream with its cited source, stops one, finds the conversation by
// search, and hits the trial's daily limit with the Premium invitation.
test('a member asks, sees a cited streamed answer, stops one and hits the trial limit', async ({ context, request }) => {
  test.setTimeout(120_000)
  await signedInUser(context, request)
  await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
  const page = await context.newPage()
  await page.goto('/vetclube-ia')

  await expect(page.getByTestId('ia-demo-notice')).toContainText('Modo demonstração')
  await expect(page.getByTestId('ia-disclaimer')).toContainText('apoio à decisão clínica')
  await expectNoSeriousA11yViolations(page, '/vetclube-ia')
  await page.getByRole('button', { name: 'Li e aceito' }).click()
  await expect(page.getByTestId('ia-quota')).toHaveText('Consultas restantes hoje: 5 de 5')

  // Ask with the keyboard: Enter sends.
  const box = page.getByRole('textbox', { name: 'Sua pergunta' })
  await box.fill('Quais os protocolos de analgesia no pós-operatório ortopédico de cães?')
  await box.press('Enter')
  await expect(page.getByTestId('ia-streaming')).toBeVisible()
  const answer = page.getByTestId('ia-answer').last()
  await expect(answer).toContainText('Modo demonstração', { timeout: 20_000 })
  const sources = answer.getByTestId('ia-sources')
  await expect(sources).toContainText('Fontes')
  const cited = sources.getByRole('link').first()
  await expect(cited).toHaveAttribute('href', /^\/noticias-veterinarias\/.+/)
  await expect(cited).toContainText(/analgesia/i)
  // The citation marker in the text links to the same page.
  await expect(answer.getByRole('link', { name: '[1]' }).first()).toHaveAttribute('href', (await cited.getAttribute('href'))!)
  await expect(page.getByRole('heading', { name: /protocolos de analgesia/i })).toBeVisible()
  await expect(page.getByTestId('ia-quota')).toHaveText('Consultas restantes hoje: 4 de 5')

  // Stop an answer while it streams: the partial answer stays, marked.
  await box.fill('Como funciona a campanha de vacinação antirrábica no interior?')
  await page.getByRole('button', { name: 'Enviar', exact: true }).click()
  await expect(page.getByTestId('ia-streaming')).toContainText('Modo demonstração', { timeout: 20_000 })
  await page.getByRole('button', { name: 'Parar' }).click()
  await expect(page.getByText('Resposta interrompida')).toBeVisible()
  await expect(page.getByRole('button', { name: 'Enviar', exact: true })).toBeVisible()

  // The conversation is found by a word of it, accents ignored.
  await page.getByRole('searchbox', { name: 'Buscar conversas' }).fill('vacinacao')
  await expect(page.getByTestId('ia-conversations').getByRole('button', { name: /^Quais os protocolos de analgesia/ })).toBeVisible()
  await page.getByRole('searchbox', { name: 'Buscar conversas' }).fill('equinos')
  await expect(page.getByTestId('ia-conversations')).toContainText('Nenhuma conversa encontrada.')

  // Edit and resend the first question: the later turns are replaced after a confirmation.
  await page.getByRole('button', { name: 'Editar e reenviar' }).first().click()
  await expect(box).toHaveValue('Quais os protocolos de analgesia no pós-operatório ortopédico de cães?')
  await box.fill('Quais os protocolos de analgesia para cães na ortopedia?')
  await box.press('Enter')
  await page.getByRole('dialog').getByRole('button', { name: 'Reenviar' }).click()
  await expect(page.getByTestId('ia-answer')).toHaveCount(1, { timeout: 20_000 })
  await expect(page.getByText('Quais os protocolos de analgesia para cães na ortopedia?', { exact: true })).toBeVisible()
  await expect(page.getByText('Como funciona a campanha de vacinação antirrábica no interior?')).toHaveCount(0)
  await expect(page.getByTestId('ia-quota')).toHaveText('Consultas restantes hoje: 2 de 5')

  // Use the rest of today's questions through the API, then the next one is refused.
  const conv = (await (await apiPost(context, '/api/ai/conversations', {})).json()) as { id: string }
  for (let i = 0; i < 2; i++) {
    const res = await apiPost(context, `/api/ai/conversations/${conv.id}/messages`, { content: `Pergunta ${i + 1}` })
    expect(res.status()).toBe(200)
    expect(await res.text()).toContain('event: done')
  }
  await box.fill('Mais uma pergunta hoje?')
  await box.press('Enter')
  const limit = page.getByTestId('ia-limit')
  await expect(limit).toContainText('Você usou as 5 consultas diárias à VetClube IA do seu plano')
  await expect(limit).toContainText('Com o Premium, você consulta a VetClube IA sem o limite do teste.')
  await expect(limit.getByRole('link', { name: 'Ver Planos' })).toHaveAttribute('href', '/pricing')

  const refused = await apiPost(context, `/api/ai/conversations/${conv.id}/messages`, { content: 'De novo' })
  expect(refused.status()).toBe(429)
  const limits = await context.request.get('/api/subscription/limits/ai_consultations')
  expect(await limits.json()).toMatchObject({ allowed: false, current: 5, limit: 5, status: 'limit_reached' })
})

test('a red-flag question shows the emergency banner before the answer', async ({ context, request }) => {
  await signedInUser(context, request)
  await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
  const page = await context.newPage()
  await page.goto('/vetclube-ia')
  await page.getByRole('button', { name: 'Li e aceito' }).click()
  const box = page.getByRole('textbox', { name: 'Sua pergunta' })
  await box.fill('Cão com convulsão há 10 minutos, o que fazer?')
  await box.press('Enter')
  await expect(page.getByTestId('ia-emergency').first()).toContainText('Possível emergência (convulsão)')
  await expect(page.getByTestId('ia-answer')).toHaveCount(1, { timeout: 20_000 })
  await expectNoSeriousA11yViolations(page, '/vetclube-ia with an answer')
  // On a phone the top bar is hidden on this route and the chat still works.
  await page.setViewportSize({ width: 390, height: 800 })
  await expect(page.getByRole('banner')).toBeHidden()
  await expect(page.getByRole('textbox', { name: 'Sua pergunta' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Enviar', exact: true })).toBeInViewport()
})
