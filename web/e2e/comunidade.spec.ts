import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './support/a11y'
import { apiPost, signedInUser, signInByApi } from './support/users'

// The community, end to end on the real server: two members connect, one
// posts with pictures on a desktop, the other answers from a phone, the
// first is told; reports hide a post and a moderator restores it in the
// backoffice.

const SUPER_ADMIN = { email: 'admin@vetclube.dev', password: 'Painel#Gestor26' } // dev seed (core/app/seed.go)

async function userId(context: BrowserContext): Promise<string> {
  const res = await context.request.get('/api/auth/session')
  expect(res.ok()).toBe(true)
  return ((await res.json()) as { user: { id: string } }).user.id
}

/** A PNG of the given colour drawn by the browser, as a file for an <input type=file>. */
async function picture(page: Page, name: string, colour: string) {
  const dataURL = await page.evaluate((c) => {
    const canvas = document.createElement('canvas')
    canvas.width = 320
    canvas.height = 240
    const g = canvas.getContext('2d')!
    g.fillStyle = c
    g.fillRect(0, 0, 320, 240)
    g.fillStyle = '#fff'
    g.fillRect(40, 40, 120, 80)
    return canvas.toDataURL('image/png')
  }, colour)
  return { name, mimeType: 'image/png', buffer: Buffer.from(dataURL.split(',')[1]!, 'base64') }
}

async function member(browser: Browser, firstName: string, lastName: string, viewport?: { width: number; height: number }) {
  const context = await browser.newContext(viewport ? { viewport, hasTouch: true } : {})
  // The floating push prompt would cover the composer on a phone; it has its own tests.
  await context.addInitScript(() => sessionStorage.setItem('push-prompt-dismissed', '1'))
  await signedInUser(context, context.request, { firstName, lastName })
  return { context, page: await context.newPage(), id: await userId(context) }
}

test.describe('community', () => {
  test('connect, post with two pictures on a desktop, comment, reply, like, edit and delete from a phone; the author is notified', async ({ browser }) => {
    test.setTimeout(240_000)
    const carla = await member(browser, 'Carla', 'Menezes')
    const davi = await member(browser, 'Davi', 'Rocha', { width: 390, height: 844 })
    try {
      // Davi asks from Carla's profile; Carla accepts on /connections.
      await davi.page.goto(`/profile/${carla.id}`)
      await davi.page.getByRole('button', { name: 'Conectar' }).click()
      await expect(davi.page.getByText('Solicitação de conexão enviada!')).toBeVisible()
      await carla.page.goto('/connections')
      await carla.page.getByRole('list', { name: 'Solicitações recebidas' }).getByRole('button', { name: 'Aceitar Davi Rocha' }).click()
      await expect(carla.page.getByText('Conexão aceita!')).toBeVisible()

      // Carla posts with two pictures (desktop).
      await carla.page.goto('/community')
      await expect(carla.page.getByRole('heading', { level: 1, name: 'Comunidade' })).toBeVisible()
      const text = 'Caso de hoje: **dermatite atópica** em um buldogue francês. Alguém usa oclacitinib por longo prazo?'
      await carla.page.getByRole('textbox', { name: 'Escreva sua publicação' }).fill(text)
      await carla.page.getByLabel('Adicionar imagens').setInputFiles([
        await picture(carla.page, 'lesao-1.png', '#b45309'),
        await picture(carla.page, 'lesao-2.png', '#1d4ed8'),
      ])
      const selected = carla.page.getByRole('list', { name: 'Imagens selecionadas' })
      await expect(selected.getByRole('listitem')).toHaveCount(2)
      const publish = carla.page.getByRole('button', { name: 'Publicar' })
      await expect(publish).toBeEnabled({ timeout: 20_000 }) // both uploads finished
      await publish.click()
      const carlaPost = carla.page.getByRole('article', { name: 'Publicação de Carla Menezes' }).first()
      await expect(carlaPost).toBeVisible()
      await expect(carlaPost.locator('strong', { hasText: 'dermatite atópica' })).toBeVisible()
      await expect(carlaPost.getByRole('img')).toHaveCount(2, { timeout: 10_000 })
      await expectNoSeriousA11yViolations(carla.page, '/community with a post')

      // Davi (phone) finds it under 'Minhas conexões', likes it and opens the comments sheet.
      await davi.page.goto('/community')
      await davi.page.getByRole('tab', { name: 'Minhas conexões' }).click()
      const post = davi.page.getByRole('article', { name: 'Publicação de Carla Menezes' }).first()
      await expect(post).toBeVisible()
      await expect(post.getByRole('img')).toHaveCount(2)
      await post.getByRole('button', { name: 'Curtir' }).click()
      await expect(post.getByRole('button', { name: 'Curtir' })).toHaveAttribute('aria-pressed', 'true')
      await post.getByRole('button', { name: 'Ver comentários' }).click()
      const sheet = davi.page.getByRole('dialog', { name: 'Comentários' })
      await expect(sheet).toBeVisible()
      // A phone gets the comments alone, as a bottom sheet; the pictures are in the feed above it.
      await expect(sheet.getByRole('group', { name: 'Mídia da publicação' })).toBeHidden()
      const sheetBox = (await sheet.boundingBox())!
      expect(Math.round(sheetBox.y + sheetBox.height)).toBe(844)
      await expectNoSeriousA11yViolations(davi.page, 'comments sheet on a phone')

      // Comment (Enter sends), reply to it, like it, edit it, delete the reply.
      const box = sheet.getByRole('textbox', { name: 'Escreva um comentário' })
      await expect(sheet.getByRole('button', { name: 'Enviar comentário' })).toBeDisabled()
      await box.fill('Uso há dois anos em alguns pacientes, com hemograma a cada seis meses.')
      await box.press('Enter')
      const comment = sheet.getByRole('article', { name: 'Comentário de Davi Rocha' }).first()
      await expect(comment).toContainText('Uso há dois anos')
      await comment.getByRole('button', { name: 'Responder' }).click()
      const reply = sheet.getByRole('textbox', { name: 'Responder a Davi Rocha' })
      await reply.fill('Complementando: sempre com controle de pulgas rigoroso.')
      await sheet.getByRole('button', { name: 'Enviar resposta' }).click()
      const replies = sheet.getByRole('list', { name: 'Respostas a Davi Rocha' })
      await expect(replies).toContainText('controle de pulgas')
      await comment.getByRole('button', { name: 'Curtir comentário' }).first().click()
      await expect(comment.getByRole('button', { name: 'Curtir comentário' }).first()).toHaveAttribute('aria-pressed', 'true')
      await comment.getByRole('button', { name: 'Editar' }).first().click()
      const edit = sheet.getByRole('textbox', { name: 'Editar comentário' })
      await edit.fill('Uso há dois anos em alguns pacientes, com hemograma e bioquímica a cada seis meses.')
      await sheet.getByRole('button', { name: 'Salvar' }).click()
      await expect(comment).toContainText('bioquímica')
      await expect(comment).toContainText('editado')
      await replies.getByRole('button', { name: 'Excluir' }).click()
      const confirm = davi.page.getByRole('dialog', { name: 'Excluir Comentário' })
      await confirm.getByRole('button', { name: 'Excluir' }).click()
      await expect(sheet.getByText('controle de pulgas')).toHaveCount(0)

      // Carla is told: a like and a comment on her post; the comment opens its post's comments.
      await carla.page.reload()
      const bell = carla.page.getByRole('banner').getByRole('button', { name: /^Notificações/ })
      await expect(carla.page.getByTestId('notification-badge')).toBeVisible({ timeout: 15_000 })
      await bell.click()
      const panel = carla.page.getByRole('region', { name: 'Notificações' })
      await expect(panel.getByText('Davi Rocha curtiu seu post').first()).toBeVisible()
      await panel.getByText('Davi Rocha comentou seu post').first().click()
      await expect(carla.page).toHaveURL(/\/community\?post=[0-9a-f-]{36}$/)
      const carlaSheet = carla.page.getByRole('dialog', { name: 'Comentários' })
      // On a desktop the pictures sit beside a 420 px comment panel.
      await expect(carlaSheet.getByRole('group', { name: 'Mídia da publicação' }).getByRole('img').first()).toBeVisible()
      expect(Math.round((await carlaSheet.getByRole('article', { name: 'Comentário de Davi Rocha' }).locator('xpath=ancestor::section[1]').boundingBox())!.width)).toBe(420)
      await expect(carlaSheet.getByRole('article', { name: 'Comentário de Davi Rocha' })).toContainText('bioquímica')
      // Only the author edits: Carla sees no Editar on Davi's comment.
      await expect(carlaSheet.getByRole('button', { name: 'Editar' })).toHaveCount(0)
    } finally {
      await carla.context.close()
      await davi.context.close()
    }
  })

  test("reports of new accounts do not hide a post; the reporter stops seeing it; a moderator's restore holds against more reports", async ({ browser }) => {
    test.setTimeout(180_000)
    const author = await member(browser, 'Eva', 'Prado')
    const created = await author.context.request.post('/api/community/posts', {
      data: { content: 'Promoção imperdível de ração, chame no privado!', media_ids: [] },
      headers: { 'X-CSRF-Token': (await author.context.cookies()).find((c) => c.name === 'vc_csrf')!.value, 'Idempotency-Key': `e2e-${Date.now()}` },
    })
    expect(created.status(), await created.text()).toBe(201)
    const postId = ((await created.json()) as { id: string }).id

    const reporters = [await member(browser, 'Fábio', 'Luz'), await member(browser, 'Gil', 'Mota'), await member(browser, 'Hana', 'Reis')]
    try {
      // The first reports through the post's menu, with a reason category.
      const first = reporters[0]!.page
      await first.goto('/community')
      const post = first.getByRole('article', { name: 'Publicação de Eva Prado' }).first()
      await post.getByRole('button', { name: 'Mais opções da publicação' }).click()
      await first.getByRole('menuitem', { name: 'Denunciar' }).click()
      const dialog = first.getByRole('dialog', { name: 'Denunciar publicação' })
      await dialog.getByRole('radio', { name: 'Spam ou propaganda' }).check()
      await dialog.getByLabel('Detalhes (opcional)').fill('Propaganda comercial fora do tema.')
      await dialog.getByRole('button', { name: 'Enviar denúncia' }).click()
      await expect(dialog).toBeHidden()
      // The reported post leaves the reporter's own feed.
      await expect(first.getByText('Promoção imperdível de ração')).toHaveCount(0)
      // Accounts made minutes ago weigh nothing: three of them do not hide it.
      for (const r of reporters.slice(1)) {
        const res = await apiPost(r.context, '/api/reports', { target_type: 'post', target_id: postId, category: 'spam', reason: '' })
        expect(res.status(), await res.text()).toBe(201)
        expect(((await res.json()) as { hidden: boolean }).hidden).toBe(false)
      }
      expect((await author.context.request.get(`/api/community/posts/${postId}`)).status()).toBe(200)

      // A moderator (the super admin inherits it) hides it, then restores it in the backoffice queue.
      const admin = await browser.newContext()
      try {
        await signInByApi(admin, SUPER_ADMIN)
        const hide = await apiPost(admin, `/api/admin/moderation/post/${postId}/hide`, { reason: 'Em análise' })
        expect(hide.status(), await hide.text()).toBe(200)
        const bo = await admin.newPage()
        await bo.goto('/backoffice/#/moderation')
        await expect(bo.getByText('Moderação da comunidade').first()).toBeVisible({ timeout: 30_000 })
        const row = bo.getByRole('row').filter({ hasText: 'Promoção imperdível de ração' }).first()
        await expect(row).toBeVisible()
        await row.getByRole('button', { name: 'Restaurar' }).click()
        await bo.getByRole('dialog').getByRole('button', { name: 'Restaurar' }).click()
        await expect(bo.getByText('Conteúdo restaurado.')).toBeVisible()
      } finally {
        await admin.close()
      }
      // After the restore, more reports do not hide it again.
      const late = await member(browser, 'Ivo', 'Lima')
      try {
        const res = await apiPost(late.context, '/api/reports', { target_type: 'post', target_id: postId, category: 'ofensivo', reason: '' })
        expect(res.status(), await res.text()).toBe(201)
      } finally {
        await late.context.close()
      }
      await author.page.goto('/community')
      await expect(author.page.getByRole('article', { name: 'Publicação de Eva Prado' }).first()).toContainText('Promoção imperdível de ração')
    } finally {
      await author.context.close()
      for (const r of reporters) await r.context.close()
    }
  })
})
