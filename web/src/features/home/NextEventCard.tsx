import { Link } from 'react-router'
import { CalendarDays } from 'lucide-react'
import { buttonClasses } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { useNextEvent, EventTypeBadge, formatEventDate, formatEventTime, inViewerZone, placeLabel } from '@/features/eventos'

/**
 * The home's next-event card: the first active event from today on (its start also in the viewer's zone when it is
 * not the event's), or the empty and error texts.
 */
export function NextEventCard() {
  const next = useNextEvent()
  const e = next.data
  const otherZone = e ? inViewerZone(e) : ''
  return (
    <Card role="region" className="flex flex-col" aria-labelledby="next-event-title">
      <CardHeader>
        <div className="flex items-center gap-2">
          <CalendarDays aria-hidden="true" className="h-5 w-5 text-primary" />
          <CardTitle id="next-event-title" className="text-base">
            Próximo Evento
          </CardTitle>
        </div>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col justify-between gap-4">
        {next.isPending && <CardDescription>Carregando...</CardDescription>}
        {next.isError && <CardDescription role="alert">Erro ao carregar próximo evento</CardDescription>}
        {next.isSuccess && !e && <CardDescription>Nenhum evento próximo</CardDescription>}
        {e && (
          <>
            <div className="flex flex-col gap-1.5">
              <EventTypeBadge type={e.event_type} className="self-start" />
              <p className="font-semibold leading-tight">
                <span aria-hidden="true">{e.icon || '📅'}</span> {e.title}
              </p>
              <p className="text-sm text-muted-foreground">
                {formatEventDate(e.event_date)} · {formatEventTime(e.event_time)} · {placeLabel(e)}
              </p>
              {otherZone && (
                <p className="text-xs text-muted-foreground" data-testid="next-event-viewer-zone">
                  {otherZone}
                </p>
              )}
            </div>
            <Link to={`/eventos/${e.slug}`} className={buttonClasses('outline', 'sm', 'self-start')}>
              Ver evento
            </Link>
          </>
        )}
      </CardContent>
    </Card>
  )
}
