import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { AdminContext } from 'react-admin'
import { QueryClient } from '@tanstack/react-query'
import { dataProvider } from '../providers/dataProvider'
import { i18nProvider } from '../providers/i18nProvider'
import { clearCookies, scriptFetch, setCookie } from '../providers/testServer'
import AiUsagePage, { type AiOverview } from './AiUsagePage'

let root: Root | null = null

beforeEach(() => {
  clearCookies()
  setCookie('vc_csrf=csrf1; path=/')
})
afterEach(() => {
  vi.unstubAllGlobals()
  act(() => root?.unmount())
  root = null
  document.body.innerHTML = ''
})

const overview: AiOverview = {
  days: 30,
  by_day: [{ day: '2026-11-24', messages: 12, tokens: 34567, cost_usd: 0.0123, members: 3 }],
  by_member: [{ user_id: 'u1', email: 'ana@exemplo.com.br', name: 'Ana Lima', messages: 7, tokens: 20000, cost_usd: 0.008 }],
  top_sources: [{ item_id: 'i1', title: 'Protocolo vacinal de filhotes', url: '/noticias-veterinarias/protocolo', cites: 5 }],
  reports: [
    {
      message_id: 'm1', conversation_id: 'c1', conversation: 'Vacinas de filhotes', email: 'ana@exemplo.com.br', reason: 'Faltou a dose',
      question: 'Quando vacinar?', answer: 'Com 6 semanas [1].', reported_at: '2026-11-24T13:00:00Z',
    },
  ],
  tools: [
    {
      tool_id: 'social-media-ia', calls: 9, members: 2, prompt_tokens: 12000, completion_tokens: 4500, cost_usd: 0.0045, refused: 1, failed: 0, images: 0,
      templates: [{ template: 'post', version: '1', calls: 8, tokens: 15000, cost_usd: 0.004 }],
    },
  ],
}

describe('AiUsagePage', () => {
  it('shows usage per day and member, cited sources and reported answers', async () => {
    const calls = scriptFetch((c) => (c.path === '/api/admin/ai/overview' ? { status: 200, json: overview } : undefined))
    const container = document.createElement('div')
    document.body.appendChild(container)
    root = createRoot(container)
    await act(async () => {
      root!.render(
        <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} queryClient={new QueryClient()}>
          <AiUsagePage />
        </AdminContext>,
      )
    })
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20))
    })
    const text = document.body.textContent ?? ''
    expect(calls[0]?.path).toBe('/api/admin/ai/overview')
    expect(text).toContain('Uso por dia')
    expect(text).toContain('24/11/2026')
    expect(text).toContain('34.567')
    expect(text).toContain('Ana Lima')
    expect(text).toContain('Protocolo vacinal de filhotes')
    expect(document.querySelector('a[href="/noticias-veterinarias/protocolo"]')).not.toBeNull()
    expect(text).toContain('Faltou a dose')
    expect(text).toContain('Pergunta: Quando vacinar?')
    expect(text).toContain('Uso por ferramenta')
    expect(text).toContain('social-media-ia')
    expect(text).toContain('12.000 / 4.500')
    expect(text).toContain('post v1: 8')
  })
})
