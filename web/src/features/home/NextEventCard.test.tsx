import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { NextEventCard } from './NextEventCard'

function renderCard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const router = createMemoryRouter([{ path: '/', element: <NextEventCard /> }])
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
}

function answer(status: number, body: unknown) {
  const fetch = vi.fn().mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }))
  vi.stubGlobal('fetch', fetch)
  return fetch
}

/** The browser reports zone as the viewer's (what Intl.DateTimeFormat().resolvedOptions() says). */
function viewIn(zone: string) {
  const original = Intl.DateTimeFormat.prototype.resolvedOptions
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
    return { ...original.call(this), timeZone: zone }
  })
}

const suturas = {
  id: '1', slug: 'workshop-suturas', title: 'Workshop de suturas', summary: '', event_type: 'Workshop', icon: '🩺',
  event_date: '2026-12-05', event_time: '19:00', time_zone: 'America/Sao_Paulo', starts_at: '2026-12-05T22:00:00Z',
  ends_at: '2026-12-06T01:00:00Z', online: false, location: 'Centro de Treinamento', instructor: '', price_text: '',
  is_active: true, published: true, max_participants: 4, current_participants: 3, seats_left: 1, full: false,
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('NextEventCard', () => {
  it('shows the next event with its badge, date, time and place', async () => {
    const fetch = answer(200, {
      event: {
        id: '1', slug: 'workshop-suturas', title: 'Workshop de suturas', summary: '', event_type: 'Workshop', icon: '🩺',
        event_date: '2026-12-05', event_time: '19:00', time_zone: 'America/Sao_Paulo', starts_at: '2026-12-05T22:00:00Z',
        ends_at: '2026-12-06T01:00:00Z', online: false, location: 'Centro de Treinamento', instructor: '', price_text: '',
        is_active: true, published: true, max_participants: 4, current_participants: 3, seats_left: 1, full: false,
      },
    })
    renderCard()
    expect(await screen.findByText('Workshop de suturas')).toBeInTheDocument()
    expect(fetch.mock.calls[0]?.[0]).toBe('/api/eventos/next')
    expect(screen.getByText('Workshop')).toHaveClass('bg-blue-100')
    expect(screen.getByText('05 de dezembro · 19:00 · Centro de Treinamento')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ver evento' })).toHaveAttribute('href', '/eventos/workshop-suturas')
  }, 15_000)

  it("adds the start in the viewer's zone only when it is not the event's", async () => {
    viewIn('America/Manaus')
    answer(200, { event: suturas })
    const first = renderCard()
    expect(await screen.findByText('Workshop de suturas')).toBeInTheDocument()
    expect(screen.getByText('05 de dezembro · 19:00 · Centro de Treinamento')).toBeInTheDocument()
    expect(screen.getByTestId('next-event-viewer-zone')).toHaveTextContent('18:00 no seu fuso (America/Manaus), 05 de dezembro')
    first.unmount()

    vi.restoreAllMocks()
    viewIn('America/Sao_Paulo')
    answer(200, { event: suturas })
    renderCard()
    expect(await screen.findByText('Workshop de suturas')).toBeInTheDocument()
    expect(screen.queryByTestId('next-event-viewer-zone')).not.toBeInTheDocument()
  }, 15_000)

  it("says 'Nenhum evento próximo' when there is none", async () => {
    answer(200, { event: null })
    renderCard()
    expect(await screen.findByText('Nenhum evento próximo')).toBeInTheDocument()
  }, 15_000)

  it("says 'Erro ao carregar próximo evento' when the read fails", async () => {
    answer(500, { error: { code: 'internal', message: 'x' } })
    renderCard()
    expect(await screen.findByText('Erro ao carregar próximo evento')).toBeInTheDocument()
  }, 15_000)
})
