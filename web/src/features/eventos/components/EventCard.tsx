import { Link } from 'react-router'
import { CalendarDays, Clock, MapPin, Users } from 'lucide-react'
import { Card } from '@/components/ui/Card'
import type { EventItem } from '../api'
import { formatEventDate, formatEventTime, inViewerZone, placeLabel, seatsLabel } from '../format'
import { EventTypeBadge } from './EventTypeBadge'

/**
 * One event in a list: type badge, date 'dd de MMMM', time HH:mm (and the start in the viewer's zone when it is not
 * the event's), place or 'Online', seats left or 'Esgotado'.
 */
export function EventCard({ event, past = false, headingLevel = 3 }: { event: EventItem; past?: boolean; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3'
  const seats = past ? '' : seatsLabel(event)
  const otherZone = inViewerZone(event)
  return (
    <Card className="flex h-full min-w-0 flex-col gap-3 p-5">
      <div className="flex items-start justify-between gap-3">
        <EventTypeBadge type={event.event_type} />
        <span aria-hidden="true" className="text-2xl leading-none">
          {event.icon || '📅'}
        </span>
      </div>
      <Heading className="text-lg font-semibold leading-tight [overflow-wrap:anywhere]">
        <Link to={`/eventos/${event.slug}`} className="hover:underline">
          {event.title}
        </Link>
      </Heading>
      {event.summary && <p className="line-clamp-2 text-sm text-muted-foreground [overflow-wrap:anywhere]">{event.summary}</p>}
      <dl className="mt-auto grid gap-1.5 text-sm">
        <div className="flex items-center gap-2">
          <dt className="sr-only">Data</dt>
          <CalendarDays aria-hidden="true" className="size-4 shrink-0 text-primary" />
          <dd>{formatEventDate(event.event_date)}</dd>
        </div>
        <div className="flex items-start gap-2">
          <dt className="sr-only">Horário</dt>
          <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
          <dd>
            {formatEventTime(event.event_time)}
            {otherZone && (
              <span className="block text-xs text-muted-foreground" data-testid="event-viewer-zone">
                {otherZone}
              </span>
            )}
          </dd>
        </div>
        <div className="flex items-start gap-2">
          <dt className="sr-only">Local</dt>
          <MapPin aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary" />
          {/* A long address wraps, within two lines, inside the card. */}
          <dd className="line-clamp-2 min-w-0 [overflow-wrap:anywhere]" title={placeLabel(event)}>
            {placeLabel(event)}
          </dd>
        </div>
        {seats && (
          <div className="flex items-center gap-2">
            <dt className="sr-only">Vagas</dt>
            <Users aria-hidden="true" className="size-4 shrink-0 text-primary" />
            <dd className={event.full ? 'font-semibold text-destructive' : undefined} data-testid="event-seats">
              {seats}
            </dd>
          </div>
        )}
      </dl>
    </Card>
  )
}
