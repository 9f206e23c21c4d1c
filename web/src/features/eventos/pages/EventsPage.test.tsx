import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EventItem } from '../api'
import EventsPage from './EventsPage'

function event(over: Partial<EventItem>): EventItem {
  return {
    id: over.slug ?? 'x', slug: 'x', title: 'Evento', summary: '', event_type: 'Workshop', icon: '📅',
    event_date: '2026-12-05', event_time: '19:00', time_zone: 'America/Sao_Paulo', starts_at: '2026-12-05T22:00:00Z',
    ends_at: '2026-12-06T00:00:00Z', online: false, location: 'Sala 1', instructor: '', price_text: '', is_active: true,
    published: true, max_participants: 10, current_participants: 3, seats_left: 7, full: false, ...over,
  }
}

const upcoming = [
  event({ slug: 'suturas', title: 'Workshop de suturas', event_type: 'Workshop', event_date: '2026-12-05', event_time: '09:05' }),
  event({ slug: 'felinos', title: 'Congresso de felinos', event_type: 'Congresso', online: true, location: '', seats_left: 0, full: true }),
  event({ slug: 'imersao', title: 'Intensivo de emergências', event_type: 'Intensivo', max_participants: null, seats_left: null }),
  event({ slug: 'palestra', title: 'Palestra de carreira', event_type: 'Palestra', seats_left: 1 }),
]
const past = [event({ slug: 'antigo', title: 'Workshop que passou', event_date: '2026-10-01', seats_left: 0, full: true })]

function serve() {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://x')
    const isPast = url.searchParams.get('when') === 'past'
    const list = isPast ? past : upcoming
    const type = url.searchParams.get('type')
    const q = url.searchParams.get('q')
    const events = (type ? list.filter((e) => e.event_type === type) : list).filter((e) => !q || e.title.toLowerCase().includes(q))
    const months = isPast ? ['2026-10'] : type === 'Congresso' ? ['2027-02'] : ['2026-12', '2027-02']
    return new Response(JSON.stringify({ events, today: '2026-11-25', months }), { status: 200, headers: { 'Content-Type': 'application/json' } })
  })
  vi.stubGlobal('fetch', fetch)
  return fetch
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const router = createMemoryRouter([{ path: '/eventos', element: <EventsPage /> }], { initialEntries: ['/eventos'] })
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
}

const requested = (fetch: ReturnType<typeof serve>) => fetch.mock.calls.map((c) => String(c[0]))
const card = (title: string) => screen.getByRole('link', { name: title }).closest('li') as HTMLElement

afterEach(() => vi.unstubAllGlobals())

describe('/eventos', () => {
  it('lists upcoming events in the order the server gives, each with its coloured badge, date, time, place and seats', async () => {
    const fetch = serve()
    renderPage()
    await screen.findByRole('link', { name: 'Workshop de suturas' })
    expect(requested(fetch)[0]).toBe('/api/eventos?when=upcoming')
    expect(screen.getAllByRole('listitem').map((li) => within(li).getByRole('link').textContent)).toEqual([
      'Workshop de suturas',
      'Congresso de felinos',
      'Intensivo de emergências',
      'Palestra de carreira',
    ])
    const suturas = within(card('Workshop de suturas'))
    expect(suturas.getByText('Workshop')).toHaveClass('bg-blue-100')
    expect(suturas.getByText('05 de dezembro')).toBeInTheDocument()
    expect(suturas.getByText('09:05')).toBeInTheDocument()
    expect(suturas.getByText('Sala 1')).toBeInTheDocument()
    expect(suturas.getByText('7 vagas restantes')).toBeInTheDocument()
    const felinos = within(card('Congresso de felinos'))
    expect(felinos.getByText('Congresso')).toHaveClass('bg-green-100')
    expect(felinos.getByText('Online')).toBeInTheDocument()
    expect(felinos.getByText('Esgotado')).toBeInTheDocument()
    expect(within(card('Intensivo de emergências')).getByText('Intensivo')).toHaveClass('bg-purple-100')
    expect(within(card('Intensivo de emergências')).queryByTestId('event-seats')).toBeNull()
    expect(within(card('Palestra de carreira')).getByText('Palestra')).toHaveClass('bg-gray-100')
    expect(within(card('Palestra de carreira')).getByText('1 vaga restante')).toBeInTheDocument()
  }, 15_000)

  it('filters by type and by month, and shows past events in their own tab', async () => {
    const fetch = serve()
    renderPage()
    await screen.findByRole('link', { name: 'Workshop de suturas' })
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Tipo' }), 'Congresso')
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Workshop de suturas' })).toBeNull())
    expect(screen.getByRole('link', { name: 'Congresso de felinos' })).toBeInTheDocument()
    expect(requested(fetch)).toContain('/api/eventos?when=upcoming&type=Congresso')

    const month = screen.getByRole('combobox', { name: 'Mês' })
    // only the months the server says hold events of this type
    await waitFor(() => expect(within(month).getAllByRole('option').map((o) => (o as HTMLOptionElement).value)).toEqual(['', '2027-02']))
    const first = within(month).getAllByRole('option')[1] as HTMLOptionElement
    expect(first.textContent).toMatch(/^[a-zç]+ de \d{4}$/)
    await userEvent.selectOptions(month, first.value)
    await waitFor(() => expect(requested(fetch)).toContain(`/api/eventos?when=upcoming&type=Congresso&month=${first.value}`))

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Tipo' }), '')
    await userEvent.click(screen.getByRole('tab', { name: 'Passados' }))
    expect(screen.getByRole('tab', { name: 'Passados' })).toHaveAttribute('aria-selected', 'true')
    const panel = await screen.findByRole('tabpanel', { name: 'Eventos passados' })
    expect(await within(panel).findByRole('link', { name: 'Workshop que passou' })).toBeInTheDocument()
    expect(requested(fetch)).toContain('/api/eventos?when=past')
    // A past event shows no seats ('Esgotado' means nothing once it is over).
    expect(within(panel).queryByText('Esgotado')).toBeNull()
  }, 15_000)

  it('searches once typing settles, and says when nothing is found', async () => {
    const fetch = serve()
    renderPage()
    await screen.findByRole('link', { name: 'Workshop de suturas' })
    await userEvent.type(screen.getByLabelText('Buscar eventos'), 'felinos')
    await waitFor(() => expect(requested(fetch)).toContain('/api/eventos?when=upcoming&q=felinos'), { timeout: 5000 })
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Workshop de suturas' })).toBeNull())
    expect(await screen.findByRole('link', { name: 'Congresso de felinos' })).toBeInTheDocument()
    expect(requested(fetch).filter((u) => u.includes('q=')).length).toBe(1)
    await userEvent.clear(screen.getByLabelText('Buscar eventos'))
    await userEvent.type(screen.getByLabelText('Buscar eventos'), 'zzz')
    expect(await screen.findByText('Nenhum evento encontrado', undefined, { timeout: 5000 })).toBeInTheDocument()
  }, 15_000)

  it("says 'Nenhum evento próximo' when there is none", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ events: [], today: '2026-11-25' }), { status: 200 })))
    renderPage()
    expect(await screen.findByText('Nenhum evento próximo')).toBeInTheDocument()
  }, 15_000)
})
