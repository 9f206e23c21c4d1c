import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'

/** A reader's place in an event (core/signups.State). */
export interface MyPlace {
  capacity: number | null
  participants: number
  held: number
  waiting: number
  status: '' | 'participant' | 'waiting' | 'offered'
  position?: number
  offer?: { id: string; expires_at: string }
}

/** An event as GET /api/eventos answers it (core/eventos.Event). */
export interface EventItem {
  id: string
  slug: string
  title: string
  summary: string
  description?: string
  event_type: string
  icon: string
  /** Local date in time_zone, YYYY-MM-DD. */
  event_date: string
  /** Local start, HH:mm. */
  event_time: string
  end_time?: string
  time_zone: string
  starts_at: string
  ends_at: string
  online: boolean
  location: string
  instructor: string
  price_text: string
  is_active: boolean
  published: boolean
  max_participants: number | null
  current_participants: number
  /** null: unlimited. */
  seats_left: number | null
  full: boolean
  meeting_url?: string
  meeting_opens_at?: string
  me?: MyPlace
}

export interface EventPage extends EventItem {
  google_calendar_url: string
  ics_url: string
}

export type When = 'upcoming' | 'past'

export interface EventFilter {
  when: When
  type: string
  /** YYYY-MM or ''. */
  month: string
  /** The reader's search, '' for none. */
  q?: string
}

export const eventKeys = {
  all: ['eventos'] as const,
  list: (f: EventFilter) => ['eventos', 'list', f.when, f.type, f.month, f.q ?? ''] as const,
  item: (slug: string) => ['eventos', 'item', slug] as const,
  next: ['eventos', 'next'] as const,
}

function listPath(f: EventFilter): string {
  const q = new URLSearchParams({ when: f.when })
  if (f.type) q.set('type', f.type)
  if (f.month) q.set('month', f.month)
  if (f.q) q.set('q', f.q)
  return `/api/eventos?${q.toString()}`
}

/** Upcoming or past events, filtered. */
export function useEvents(f: EventFilter) {
  return useQuery({
    queryKey: eventKeys.list(f),
    queryFn: ({ signal }) => apiFetch<{ events: EventItem[]; today: string; months?: string[] }>(listPath(f), { signal }),
    // Seats change with every sign-up: a remembered page is shown at once and refreshed.
    staleTime: 0,
  })
}

/** One event page with the reader's place. */
export function useEvent(slug: string) {
  return useQuery({
    queryKey: eventKeys.item(slug),
    queryFn: ({ signal }) => apiFetch<EventPage>(`/api/eventos/${encodeURIComponent(slug)}`, { signal }),
    // Seats, offers and the meeting link change by the minute.
    staleTime: 0,
  })
}

/** The home card's event: the first active event from today on; null when none. */
export function useNextEvent() {
  return useQuery({
    queryKey: eventKeys.next,
    queryFn: ({ signal }) => apiFetch<{ event: EventItem | null }>('/api/eventos/next', { signal }).then((r) => r.event),
    staleTime: 60 * 1000,
  })
}

export type SeatAction = 'join' | 'leave' | 'wait'

const actionRequest: Record<SeatAction, { method: 'PUT' | 'DELETE'; path: string }> = {
  join: { method: 'PUT', path: 'participation' },
  leave: { method: 'DELETE', path: 'participation' },
  wait: { method: 'PUT', path: 'waitlist' },
}

/** Participar / Cancelar participação / Entrar na lista de espera. */
export function useSeatAction(slug: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (action: SeatAction) => {
      const r = actionRequest[action]
      return apiFetch<EventPage>(`/api/eventos/${encodeURIComponent(slug)}/${r.path}`, { method: r.method })
    },
    onSuccess: (page) => {
      qc.setQueryData(eventKeys.item(slug), page)
      // Seat counts on the lists and the home card changed too.
      void qc.invalidateQueries({ queryKey: ['eventos', 'list'] })
      void qc.invalidateQueries({ queryKey: eventKeys.next })
    },
  })
}
