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
export function EventCard({ event, past = false }: { event: EventItem; past?: boolean }) {
  const seats = past ? '' : seatsLabel(event)
  const otherZone = inViewerZone(event)
  return (
    <Card className="flex h-full flex-col gap-3 p-5">
      <div className="flex items-start justify-between gap-3">
        <EventTypeBadge type={event.event_type} />
        <span aria-hidden="true" className="text-2xl leading-none">
          {event.icon || '📅'}
        </span>
      </div>
      <h3 className="text-lg font-semibold leading-tight">
        <Link to={`/eventos/${event.slug}`} className="hover:underline">
          {event.title}
        </Link>
      </h3>
      {event.summary && <p className="line-clamp-2 text-sm text-muted-foreground">{event.summary}</p>}
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
        <div className="flex items-center gap-2">
          <dt className="sr-only">Local</dt>
          <MapPin aria-hidden="true" className="size-4 shrink-0 text-primary" />
          <dd className="truncate">{placeLabel(event)}</dd>
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
