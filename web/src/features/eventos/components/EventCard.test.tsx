import { render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { EventItem } from '../api'
import { EventCard } from './EventCard'

const event: EventItem = {
  id: '1', slug: 'suturas', title: 'Workshop de suturas', summary: '', event_type: 'Workshop', icon: '🩺',
  event_date: '2026-12-05', event_time: '19:00', time_zone: 'America/Sao_Paulo', starts_at: '2026-12-05T22:00:00Z',
  ends_at: '2026-12-06T00:00:00Z', online: false, location: 'Sala 1', instructor: '', price_text: '', is_active: true,
  published: true, max_participants: 10, current_participants: 3, seats_left: 7, full: false,
}

/** The browser reports zone as the viewer's (what Intl.DateTimeFormat().resolvedOptions() says). */
function viewIn(zone: string) {
  const original = Intl.DateTimeFormat.prototype.resolvedOptions
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (this: Intl.DateTimeFormat) {
    return { ...original.call(this), timeZone: zone }
  })
}

function renderCard(e: EventItem) {
  const router = createMemoryRouter([{ path: '/', element: <EventCard event={e} /> }])
  return render(<RouterProvider router={router} />)
}

afterEach(() => vi.restoreAllMocks())

describe('EventCard', () => {
  it("adds the start in the viewer's zone when it is not the event's", () => {
    viewIn('America/Manaus')
    renderCard(event)
    expect(screen.getByText('19:00')).toBeInTheDocument()
    expect(screen.getByTestId('event-viewer-zone')).toHaveTextContent('18:00 no seu fuso (America/Manaus), 05 de dezembro')
  })

  it('names the next day when the start falls on it in the viewer zone', () => {
    viewIn('Asia/Tokyo')
    renderCard(event)
    expect(screen.getByTestId('event-viewer-zone')).toHaveTextContent('07:00 no seu fuso (Asia/Tokyo), 06 de dezembro')
  })

  it("shows the event's time alone when the viewer is in its zone", () => {
    viewIn('America/Sao_Paulo')
    renderCard(event)
    expect(screen.getByText('19:00')).toBeInTheDocument()
    expect(screen.queryByTestId('event-viewer-zone')).not.toBeInTheDocument()
    expect(screen.queryByText(/no seu fuso/)).not.toBeInTheDocument()
  })
})
