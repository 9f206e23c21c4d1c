import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { AdminContext, RecordContextProvider } from 'react-admin'
import { QueryClient } from '@tanstack/react-query'
import { dataProvider } from '../providers/dataProvider'
import { i18nProvider } from '../providers/i18nProvider'
import { mayAccessResource, mayEnterBackoffice } from '../providers/authProvider'
import { clearCookies, scriptFetch, setCookie } from '../providers/testServer'
import { ModerationButtons, ModerationDetails } from './ModerationList'
import { actionsFor, personName, type ModerationRow } from './types'

const row = (over: Partial<ModerationRow> = {}): ModerationRow => ({
  id: 'comment:c1',
  target_type: 'comment',
  target_id: 'c1',
  state: 'oculto',
  excerpt: 'Texto <b>denunciado</b>',
  item_id: 'p1',
  link: '/community?post=p1',
  author: { id: 'u1', first_name: 'Bruno', last_name: 'Lima', avatar_url: null, title: null, verified: false },
  reports: [
    { reporter: { id: 'u2', first_name: 'Ana', last_name: '', avatar_url: null, title: null, verified: true }, reason: 'Ofensivo', created_at: '2026-11-23T12:00:00Z' },
    { reporter: null, reason: 'Spam', created_at: '2026-11-23T12:05:00Z' },
  ],
  report_count: 3,
  open_reports: 0,
  author_history: { posts: 4, comments: 12, hidden: 1, removed: 2 },
  log: [{ action: 'hide', from_state: 'publicado', to_state: 'oculto', actor: null, reason: '', created_at: '2026-11-23T12:06:00Z' }],
  created_at: '2026-11-23T12:00:00Z',
  updated_at: '2026-11-23T12:06:00Z',
  ...over,
})

beforeEach(() => {
  clearCookies()
  setCookie('vc_csrf=csrf1; path=/')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('moderation rules in the backoffice', () => {
  it('offers only the transitions the server allows', () => {
    expect(actionsFor('publicado')).toEqual(['hide', 'remove'])
    expect(actionsFor('oculto')).toEqual(['restore', 'remove'])
    expect(actionsFor('removido')).toEqual([])
  })

  it('lets moderators in to the queue only, and super admins everywhere', () => {
    expect(mayEnterBackoffice(['user', 'moderador'])).toBe(true)
    expect(mayAccessResource(['user', 'moderador'], 'moderation')).toBe(true)
    expect(mayAccessResource(['user', 'moderador'], 'users')).toBe(false)
    expect(mayAccessResource(['user', 'moderador'], 'audit')).toBe(false)
    expect(mayAccessResource(['user', 'editor'], 'moderation')).toBe(false)
    expect(mayAccessResource(['user', 'super_admin'], 'moderation')).toBe(true)
    expect(personName(null)).toBe('Usuário VetClube')
  })
})

describe('moderation data', () => {
  it('reads the queue with ra-data-simple-rest and posts decisions with the CSRF header and the reason', async () => {
    const calls = scriptFetch((call) => {
      if (call.method === 'POST' && call.path === '/api/admin/moderation/comment/c1/remove') {
        return { status: 200, json: row({ state: 'removido' }) }
      }
      return undefined
    })
    const { data } = await dataProvider.moderate(row(), 'remove', '  Discurso de ódio ')
    expect(data.state).toBe('removido')
    expect(calls[0].headers.get('X-CSRF-Token')).toBe('csrf1')
    expect(JSON.parse(calls[0].body)).toEqual({ reason: 'Discurso de ódio' })
  })

  it('lists with range, sort and the state filter and reads the total from Content-Range', async () => {
    const seen: string[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (request: Request) => {
        seen.push(decodeURIComponent(request.url))
        return new Response(JSON.stringify([row()]), {
          status: 200,
          headers: { 'Content-Type': 'application/json', 'Content-Range': 'moderation 0-0/7' },
        })
      }),
    )
    const res = await dataProvider.getList('moderation', {
      pagination: { page: 1, perPage: 25 },
      sort: { field: 'updated_at', order: 'DESC' },
      filter: { state: 'oculto' },
    })
    expect(res.total).toBe(7)
    expect(res.data[0].id).toBe('comment:c1')
    expect(seen[0]).toContain('/api/admin/moderation?')
    expect(seen[0]).toContain('filter={"state":"oculto"}')
    expect(seen[0]).toContain('range=[0,24]')
  })
})

// react-dom alone (no testing library in the backoffice): render into the
// document, find by text and role, click through act.
;(globalThis as any).IS_REACT_ACT_ENVIRONMENT = true
let root: Root | null = null
afterEach(() => {
  act(() => root?.unmount())
  root = null
  document.body.innerHTML = ''
})

async function renderWithAdmin(node: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const container = document.createElement('div')
  document.body.appendChild(container)
  root = createRoot(container)
  await act(async () => {
    root!.render(
      <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} queryClient={queryClient}>
        {node}
      </AdminContext>,
    )
  })
  return container
}

const texts = () => Array.from(document.body.querySelectorAll('*')).filter((e) => e.children.length === 0).map((e) => e.textContent ?? '')
const buttons = (scope: ParentNode = document.body) => Array.from(scope.querySelectorAll('button'))
const button = (label: string, scope?: ParentNode) => buttons(scope).find((b) => b.textContent === label)

async function until(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 10))
    })
  }
  expect(check()).toBe(true)
}

describe('moderation views', () => {
  it('show the reports, the author history and the decisions, with the text as text', async () => {
    const container = await renderWithAdmin(
      <RecordContextProvider value={row()}>
        <ModerationDetails />
      </RecordContextProvider>,
    )
    const all = texts()
    expect(all).toContain('Texto <b>denunciado</b>')
    expect(container.querySelector('b')).toBeNull()
    expect(all.some((t) => t.includes('Ana: Ofensivo'))).toBe(true)
    expect(all.some((t) => t.includes('Usuário VetClube: Spam'))).toBe(true)
    expect(all).toContain('Bruno Lima: 4 publicações, 12 comentários, 1 ocultos, 2 removidos.')
    expect(all.some((t) => t.includes('automático (3 denúncias)'))).toBe(true)
    const link = Array.from(container.querySelectorAll('a')).find((a) => a.textContent === 'Abrir no aplicativo')
    expect(link?.getAttribute('href')).toBe('/community?post=p1')
  })

  it('restore a hidden comment after confirmation, sending the reason', async () => {
    const calls = scriptFetch((call) =>
      call.method === 'POST' && call.path === '/api/admin/moderation/comment/c1/restore' ? { status: 200, json: row({ state: 'publicado' }) } : undefined,
    )
    await renderWithAdmin(
      <RecordContextProvider value={row()}>
        <ModerationButtons />
      </RecordContextProvider>,
    )
    expect(button('Ocultar')).toBeUndefined()
    expect(button('Remover')).toBeDefined()
    await act(async () => button('Restaurar')!.click())
    await until(() => texts().includes('Restaurar este conteúdo?'))
    const dialog = document.body.querySelector('[role="dialog"]')!
    const input = dialog.querySelector('textarea:not([aria-hidden])') as HTMLTextAreaElement
    await act(async () => {
      const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!
      setter.call(input, 'Denúncia improcedente')
      input.dispatchEvent(new Event('input', { bubbles: true }))
    })
    await act(async () => button('Restaurar', dialog)!.click())
    await until(() => calls.length === 1)
    expect(calls[0].path).toBe('/api/admin/moderation/comment/c1/restore')
    expect(JSON.parse(calls[0].body)).toEqual({ reason: 'Denúncia improcedente' })
  })

  it('offer nothing on a removed target', async () => {
    await renderWithAdmin(
      <RecordContextProvider value={row({ state: 'removido' })}>
        <ModerationButtons />
      </RecordContextProvider>,
    )
    expect(buttons()).toHaveLength(0)
  })
})
