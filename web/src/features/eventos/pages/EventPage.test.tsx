import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { EventPage as Page, MyPlace } from '../api'
import EventPage from './EventPage'

beforeAll(() => {
  // jsdom has no modal <dialog>: the confirmation opens as a plain open dialog.
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true
  }
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false
    this.dispatchEvent(new Event('close'))
  }
})

const inTwoDays = new Date(Date.now() + 2 * 24 * 3600 * 1000)

function page(over: Partial<Page> = {}, me?: Partial<MyPlace>): Page {
  return {
    id: 'e1', slug: 'webinar', title: 'Webinar de dermatologia', summary: 'Dermatite atópica', description: 'Programa **completo**.',
    event_type: 'Webinar', icon: '💻', event_date: '2026-12-05', event_time: '20:00', end_time: '21:30',
    time_zone: 'America/Sao_Paulo', starts_at: inTwoDays.toISOString(), ends_at: new Date(inTwoDays.getTime() + 5400e3).toISOString(),
    online: true, location: '', instructor: 'Dra. Helena Prado', price_text: 'Gratuito', is_active: true, published: true,
    max_participants: 10, current_participants: 4, seats_left: 6, full: false,
    google_calendar_url: 'https://calendar.google.com/calendar/render?action=TEMPLATE', ics_url: '/api/eventos/e1/calendar.ics',
    me: { capacity: 10, participants: 4, held: 0, waiting: 0, status: '', ...me },
    ...over,
  }
}

function serve(first: Page, after?: Page) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const body = init?.method && init.method !== 'GET' && after ? after : first
    void input
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })
  })
  vi.stubGlobal('fetch', fetch)
  return fetch
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const router = createMemoryRouter([{ path: '/eventos/:slug', element: <EventPage /> }], { initialEntries: ['/eventos/webinar'] })
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
}

afterEach(() => vi.unstubAllGlobals())

describe('event page', () => {
  it('shows description, instructor, place, seats, calendar links and share', async () => {
    serve(page())
    renderPage()
    expect(await screen.findByRole('heading', { name: /Webinar de dermatologia/, level: 1 })).toBeInTheDocument()
    expect(screen.getByText('Dra. Helena Prado')).toBeInTheDocument()
    expect(screen.getByText('Online')).toBeInTheDocument()
    expect(screen.getByText('completo')).toBeInTheDocument()
    expect(screen.getByTestId('event-seats')).toHaveTextContent('4 participantes · 6 vagas restantes')
    expect(screen.getByRole('link', { name: 'Adicionar à agenda' })).toHaveAttribute('href', '/api/eventos/e1/calendar.ics')
    expect(screen.getByRole('link', { name: 'Adicionar à agenda' })).toHaveAttribute('download', 'webinar.ics')
    expect(screen.getByRole('link', { name: 'Google Agenda' })).toHaveAttribute('href', expect.stringContaining('calendar.google.com'))
    expect(screen.getByRole('button', { name: 'Compartilhar' })).toBeInTheDocument()
    // No link for someone who does not take part.
    expect(screen.queryByRole('link', { name: /Entrar na transmissão/ })).toBeNull()
  }, 15_000)

  it('Participar takes a seat and tells the participant when the meeting link appears', async () => {
    const joined = page({ current_participants: 5, seats_left: 5, meeting_opens_at: new Date(inTwoDays.getTime() - 1800e3).toISOString() }, {
      status: 'participant',
      participants: 5,
    })
    const fetch = serve(page(), joined)
    renderPage()
    await userEvent.click(await screen.findByRole('button', { name: 'Participar' }))
    await waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/eventos/webinar/participation', expect.objectContaining({ method: 'PUT' })))
    expect(await screen.findByText('Você está participando deste evento.')).toBeInTheDocument()
    expect(screen.getByTestId('event-seats')).toHaveTextContent('5 participantes · 5 vagas restantes')
    expect(screen.getByRole('button', { name: 'Cancelar participação' })).toBeInTheDocument()
    // Before the 30 minutes, the participant is told when the link appears.
    expect(screen.getByText(/O link da transmissão aparece aqui a partir de \d{2}\/\d{2} às \d{2}:\d{2}/)).toBeInTheDocument()
  }, 15_000)

  it('offers the waiting list when full, and the link to a participant once the server sends it', async () => {
    const fetch = serve(page({ seats_left: 0, full: true, current_participants: 10 }), page({ seats_left: 0, full: true }, { status: 'waiting', position: 3 }))
    renderPage()
    await userEvent.click(await screen.findByRole('button', { name: 'Entrar na lista de espera' }))
    await waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/eventos/webinar/waitlist', expect.objectContaining({ method: 'PUT' })))
    expect(await screen.findByText(/Você está na lista de espera \(3º lugar\)/)).toBeInTheDocument()
    vi.unstubAllGlobals()

    serve(page({ meeting_url: 'https://meet.example.org/sala' }, { status: 'participant' }))
    renderPage()
    expect(await screen.findAllByRole('link', { name: /Entrar na transmissão/ })).toHaveLength(1)
    expect(screen.getByRole('link', { name: /Entrar na transmissão/ })).toHaveAttribute('href', 'https://meet.example.org/sala')
  }, 15_000)

  it.each([
    ['participant', 'Cancelar participação', 'Cancelar participação?', 'Sim, cancelar participação'],
    ['waiting', 'Sair da lista de espera', 'Sair da lista de espera?', 'Sim, sair da lista'],
  ] as const)('as %s, %s asks before giving the place up', async (status, button, question, yes) => {
    const fetch = serve(page({}, { status, position: 2 }), page())
    renderPage()
    await userEvent.click(await screen.findByRole('button', { name: button }))
    const dialog = screen.getByRole('dialog', { name: question })
    expect(fetch).not.toHaveBeenCalledWith(expect.stringMatching(/participation|waitlist/), expect.objectContaining({ method: 'DELETE' }))
    // 'Voltar' keeps the place.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Voltar' }))
    expect(fetch).not.toHaveBeenCalledWith(expect.stringMatching(/participation|waitlist/), expect.objectContaining({ method: 'DELETE' }))
    await userEvent.click(screen.getByRole('button', { name: button }))
    await userEvent.click(within(screen.getByRole('dialog', { name: question })).getByRole('button', { name: yes }))
    await waitFor(() => expect(fetch).toHaveBeenCalledWith(expect.stringMatching(/participation|waitlist/), expect.objectContaining({ method: 'DELETE' })))
  }, 15_000)

  it('shows a seat offer with its deadline and the start in the viewer zone when it differs', async () => {
    const e = page({ time_zone: 'America/Noronha' }, { status: 'offered', offer: { id: 'o1', expires_at: inTwoDays.toISOString() } })
    serve(e)
    renderPage()
    expect(await screen.findByText(/Abriu uma vaga para você! Confirme até/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Participar' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Recusar vaga' })).toBeInTheDocument()
    expect(screen.getByText('(fuso America/Noronha)')).toBeInTheDocument()
    // The test runner's zone is not Noronha's: the start is also given in it.
    expect(screen.getByText(/^\d{2}:\d{2} no seu fuso \(.+\), \d{2} de [a-zç]+$/)).toBeInTheDocument()
  }, 15_000)
})
