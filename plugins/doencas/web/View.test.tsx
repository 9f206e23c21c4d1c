import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { MemoryRouter, Route, Routes, useLocation } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ToolViewProps } from '@/features/ferramentas'
import DiseasesView from './View'

const tool: ToolViewProps['tool'] = {
  id: 'doencas', name: 'Doenças', description: '', version: '1.0.0', icon: 'stethoscope', category: 'Clínica', slug: 'doencas',
  access: 'user', premium: false, locked: false, ui_kind: 'custom', available: true,
}

const cinomose = {
  slug: 'cinomose', name: 'Cinomose', summary: 'Doença viral multissistêmica de cães.', synonyms: ['doença de Carré'],
  species: [{ value: 'caes', label: 'Cães' }], system: { value: 'multissistemico', label: 'Multissistêmico' },
  zoonotic: false, notifiable: false, favorite: false,
}

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })
}

function Url() {
  return <p data-testid="url">{useLocation().pathname + useLocation().search}</p>
}

function renderAt(url: string) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  return render(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/ferramentas/:slug/*" element={<><DiseasesView tool={tool} /><Url /></>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  )
}

afterEach(() => vi.unstubAllGlobals())

describe('DiseasesView', () => {
  it('searches as the member types and keeps the search in the address', async () => {
    const fetch = vi.fn((input: string) => {
      if (input.includes('/opcoes')) return Promise.resolve(json({ species: [{ value: 'caes', label: 'Cães' }], systems: [] }))
      return Promise.resolve(json({ items: input.includes('q=') ? [cinomose] : [], total: input.includes('q=') ? 1 : 0, page: 1, page_size: 20 }))
    })
    vi.stubGlobal('fetch', fetch)
    renderAt('/ferramentas/doencas')
    fireEvent.change(screen.getByLabelText('Buscar doença'), { target: { value: 'sinomoze' } })
    await waitFor(() => expect(screen.getByTestId('url').textContent).toBe('/ferramentas/doencas?q=sinomoze'))
    expect(await screen.findByRole('link', { name: 'Cinomose' })).toHaveAttribute('href', '/ferramentas/doencas/cinomose')
    expect(screen.getByRole('status').textContent).toBe('1 doença encontrada')
    expect(fetch.mock.calls.some(([u]) => String(u).includes('/api/tools/doencas/doencas?q=sinomoze'))).toBe(true)
  }, 20_000)

  it("shows a disease's page with its notification duty and toggles the favourite", async () => {
    let favorite = false
    const fetch = vi.fn((input: string, init?: RequestInit) => {
      if (input.endsWith('/favorito')) {
        favorite = init?.method === 'PUT'
        return Promise.resolve(json({ slug: 'mormo', favorite }))
      }
      return Promise.resolve(
        json({
          ...cinomose, slug: 'mormo', name: 'Mormo', favorite, notifiable: true, zoonotic: true,
          agent_type: { value: 'bacteria', label: 'Bactéria' }, agent: 'Burkholderia mallei.', transmission: 'Água e cochos.',
          clinical_signs: 'Secreção nasal.', diagnosis: 'Fixação de complemento.', treatment: 'Não se trata.', prevention: 'Exame para trânsito.',
          notification: { required: true, list: '2', label: 'Lista 2 — notificação imediata de caso suspeito', deadline: 'Notificação imediata (em até 24 horas).' },
          woah_listed: true, references: ['MAPA. IN 6/2018.'],
        }),
      )
    })
    vi.stubGlobal('fetch', fetch)
    renderAt('/ferramentas/doencas/mormo')
    expect(await screen.findByRole('heading', { level: 2, name: 'Mormo' })).toBeInTheDocument()
    expect(screen.getByRole('note').textContent).toContain('24 horas')
    await userEvent.click(screen.getByRole('button', { name: 'Favoritar' }))
    await waitFor(() => expect(screen.getByRole('button', { name: 'Favoritar' })).toHaveAttribute('aria-pressed', 'true'))
    expect(fetch.mock.calls.some(([u, i]) => String(u).endsWith('/doencas/mormo/favorito') && (i as RequestInit | undefined)?.method === 'PUT')).toBe(true)
  }, 20_000)
})
