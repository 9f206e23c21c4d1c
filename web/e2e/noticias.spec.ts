import { expect, test, type Browser, type BrowserContext } from '@playwright/test'
import { apiPost, signedInUser, signInByApi } from './support/users'

// Dev seed (core/app/seed.go): the super admin (who may take every workflow
// step), and news in every state (four published) from the news plugin.
const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' }

async function csrf(context: BrowserContext): Promise<Record<string, string>> {
  const c = (await context.cookies()).find((k) => k.name === 'vc_csrf')
  return c ? { 'X-CSRF-Token': c.value } : {}
}

/** Publishes a news item through the real workflow (submit, approve, publish). */
async function publish(reviewer: BrowserContext, title: string, category: string, body: string) {
  const created = await apiPost(reviewer, '/api/admin/content/noticias', {
    title,
    summary: `Resumo: ${title}`,
    fields: { body, category },
  })
  expect(created.status(), await created.text()).toBe(201)
  let item = await created.json()
  for (const action of ['submit', 'approve', 'publish']) {
    const res = await reviewer.request.post(`/api/admin/content/noticias/${item.id}/actions/${action}`, {
      data: { version: item.version },
      headers: await csrf(reviewer),
    })
    expect(res.status(), await res.text()).toBe(200)
    item = await res.json()
  }
  return item
}

async function reviewerContext(browser: Browser) {
  const ctx = await browser.newContext()
  await signInByApi(ctx, SUPER_ADMIN)
  return ctx
}

const LONG = ' O texto segue com detalhes do atendimento, da conduta clínica e das orientações ao tutor para a semana.'

test('a reader browses vet news: newest first, category filter, accent-free search, infinite scroll, article and share', async ({
  page,
  context,
  request,
  browser,
}) => {
  test.slow()
  const reviewer = await reviewerContext(browser)
  // 18 more published items, so the list has a second page (20 per page).
  for (let i = 1; i <= 18; i++) {
    await publish(reviewer, `Boletim clínico semanal número ${i}`, 'clinica', `Resumo de casos atendidos na semana ${i}.${LONG}`)
  }
  const surgery = await publish(reviewer, 'Técnica cirúrgica reduz complicações em castrações', 'cirurgia',
    `Um estudo acompanhou **castrações** em cadelas.\n\n## Resultados\n\n- menos dor\n- alta mais cedo\n\n<script>alert('x')</script>${LONG}`)
  await reviewer.close()

  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  await signedInUser(context, request)
  await page.goto('/noticias-veterinarias')
  await expect(page.getByRole('heading', { name: 'Notícias', level: 1 })).toBeVisible()
  // Newest first: the item published last leads.
  const cards = page.getByRole('heading', { level: 2 })
  await expect(cards.first()).toHaveText('Técnica cirúrgica reduz complicações em castrações')
  await expect(cards).toHaveCount(20)
  // Infinite scroll: reaching the end loads the rest (the seed's, the 19
  // published here, and any other test's on this server).
  const published = (await (await page.request.get('/api/content/noticias?limit=100')).json()).items.length
  expect(published).toBeGreaterThan(20)
  await page.getByRole('button', { name: 'Carregar mais' }).scrollIntoViewIfNeeded()
  await expect(cards).toHaveCount(published)
  await expect(page.getByRole('button', { name: 'Carregar mais' })).toHaveCount(0)

  // Category filter.
  await page.getByRole('group', { name: 'Categoria' }).getByRole('button', { name: 'Cirurgia' }).click()
  await expect(page).toHaveURL(/category=cirurgia/)
  await expect(cards).toHaveCount(2)
  await page.getByRole('group', { name: 'Categoria' }).getByRole('button', { name: 'Todas' }).click()

  // Search ignores accents and matches word stems: "cirurgia" finds the
  // "Cirurgia ..." title and the "cirúrgico"/"cirúrgica" texts.
  await page.getByRole('searchbox', { name: 'Buscar notícias' }).fill('cirurgia')
  await expect(page).toHaveURL(/q=cirurgia/)
  await expect(cards.filter({ hasText: 'Cirurgia minimamente invasiva ganha espaço em clínicas de pequenos animais' })).toHaveCount(1)
  await expect(cards.filter({ hasText: 'Técnica cirúrgica reduz complicações em castrações' })).toHaveCount(1)
  await expect(cards.filter({ hasText: 'Estudo brasileiro compara protocolos de analgesia' })).toHaveCount(1)
  await expect(cards.filter({ hasText: 'Boletim clínico' })).toHaveCount(0)

  // The article: body Markdown rendered (no raw HTML), source link, share.
  await cards.filter({ hasText: 'Técnica cirúrgica' }).getByRole('link').click()
  await expect(page).toHaveURL(new RegExp(`/noticias-veterinarias/${surgery.slug}$`))
  await expect(page.getByRole('heading', { name: 'Técnica cirúrgica reduz complicações em castrações', level: 1 })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Resultados', level: 2 })).toBeVisible()
  await expect(page.getByRole('listitem').filter({ hasText: 'alta mais cedo' })).toBeVisible()
  await expect(page.locator('article script')).toHaveCount(0)
  await expect(page.getByText("alert('x')")).toHaveCount(0)
  await expect(page.getByText('1 min de leitura')).toBeVisible()
  // Chromium on Linux has no Web Share API: the link is copied instead.
  await page.getByRole('button', { name: 'Compartilhar' }).click()
  await expect(page.getByText('Link copiado!').first()).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(page.url())
  await page.getByRole('button', { name: /^Gostei/ }).click()
  await expect(page.getByRole('button', { name: /^Gostei/ })).toHaveAttribute('aria-pressed', 'true')

  // The seeded article with its source.
  await page.goto('/noticias-veterinarias/vacinacao-antirrabica')
  await expect(page.getByRole('link', { name: 'Ministério da Saúde' })).toHaveAttribute('href', 'https://www.gov.br/saude/pt-br')
  await expect(page.getByRole('link', { name: 'Ministério da Saúde' })).toHaveAttribute('rel', 'noopener noreferrer')
})

test('a visitor is sent to sign in, and an unknown path is still not found', async ({ page }) => {
  await page.goto('/noticias-veterinarias')
  await expect(page).toHaveURL(/\/login/)
  await page.goto('/noticias-que-nao-existem')
  await expect(page.getByRole('heading', { name: 'Página não encontrada' })).toBeVisible()
})

test('a preview link shows the draft marked Pré-visualização and not indexable', async ({ page, browser }) => {
  const reviewer = await reviewerContext(browser)
  const created = await apiPost(reviewer, '/api/admin/content/noticias', {
    title: 'Rascunho com pré-visualização',
    summary: 'Ainda não publicado',
    fields: { body: `Texto do rascunho que ninguém lê ainda.${LONG}`, category: 'pesquisa' },
  })
  const item = await created.json()
  const link = await reviewer.request.post(`/api/admin/content/noticias/${item.id}/preview`, { headers: await csrf(reviewer) })
  const { token } = await link.json()
  await reviewer.close()

  await page.goto(`/pre-visualizacao/${token}`)
  await expect(page.getByRole('status').filter({ hasText: 'Pré-visualização' })).toBeVisible()
  await expect(page.getByRole('heading', { name: 'Rascunho com pré-visualização', level: 1 })).toBeVisible()
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow')
  await page.goto('/pre-visualizacao/token-invalido')
  await expect(page.getByText('Este link de pré-visualização expirou ou é inválido.', { exact: false })).toBeVisible()
})
