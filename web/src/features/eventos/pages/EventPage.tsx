import { useState } from 'react'
import { useParams, Link } from 'react-router'
import Markdown from 'react-markdown'
import { ArrowLeft, CalendarDays, CalendarPlus, Clock, Download, MapPin, User, Users, Video } from 'lucide-react'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Dialog } from '@/components/ui/Dialog'
import { Spinner } from '@/components/ui/Spinner'
import { ShareButton } from '@/components/ShareButton'
import { toast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api'
import { usePageTitle } from '@/lib/usePageTitle'
import { useEvent, useSeatAction, type EventPage as Page, type SeatAction } from '../api'
import { EventTypeBadge } from '../components/EventTypeBadge'
import { formatEventDate, formatEventTime, inViewerZone, placeLabel, seatsLabel, shortMoment } from '../format'

const done: Record<SeatAction, string> = {
  join: 'Participação confirmada!',
  leave: 'Participação cancelada.',
  wait: 'Você entrou na lista de espera.',
}

/** What giving up a place costs, asked before it happens (a seat given up may go to the waiting list at once). */
const leaveQuestion: Record<'participant' | 'offered' | 'waiting', { title: string; description: string; confirm: string }> = {
  participant: {
    title: 'Cancelar participação?',
    description: 'Sua vaga será liberada para outra pessoa e pode não estar disponível depois.',
    confirm: 'Sim, cancelar participação',
  },
  offered: {
    title: 'Recusar a vaga?',
    description: 'A vaga passa para a próxima pessoa da lista de espera.',
    confirm: 'Sim, recusar vaga',
  },
  waiting: {
    title: 'Sair da lista de espera?',
    description: 'Você perde o seu lugar na fila. Se voltar depois, entra no fim da lista.',
    confirm: 'Sim, sair da lista',
  },
}

function SeatActions({ event }: { event: Page }) {
  const act = useSeatAction(event.slug)
  const [asking, setAsking] = useState(false)
  const run = (a: SeatAction) =>
    act.mutate(a, {
      onSuccess: () => toast({ title: done[a], variant: 'success' }),
      onError: (e) => toast({ title: e instanceof ApiError ? e.message : 'Não foi possível concluir. Tente novamente.', variant: 'error' }),
      onSettled: () => setAsking(false),
    })
  const me = event.me
  const question = me && (me.status === 'participant' || me.status === 'offered' || me.status === 'waiting') ? leaveQuestion[me.status] : null
  const confirmLeave = question && (
    <Dialog
      open={asking}
      onOpenChange={setAsking}
      title={question.title}
      description={question.description}
      footer={
        <>
          <Button variant="outline" disabled={act.isPending} onClick={() => setAsking(false)}>
            Voltar
          </Button>
          <Button variant="destructive" loading={act.isPending} onClick={() => run('leave')}>
            {question.confirm}
          </Button>
        </>
      }
    />
  )
  const started = Date.now() >= Date.parse(event.starts_at)
  if (!event.is_active) return <p role="status" className="font-semibold text-destructive">Este evento foi cancelado.</p>
  if (!event.published || started) {
    return me?.status === 'participant' ? <p role="status">Você participou deste evento.</p> : <p role="status">Inscrições encerradas.</p>
  }
  if (!me) return null
  switch (me.status) {
    case 'participant':
      return (
        <div className="flex flex-col items-start gap-2">
          <p role="status" className="font-medium text-green-700 dark:text-green-400">Você está participando deste evento.</p>
          <Button variant="outline" loading={act.isPending} onClick={() => setAsking(true)}>
            Cancelar participação
          </Button>
          {confirmLeave}
        </div>
      )
    case 'offered':
      return (
        <div className="flex flex-col items-start gap-2">
          <p role="status" className="font-medium">
            Abriu uma vaga para você! Confirme até {me.offer ? shortMoment(me.offer.expires_at) : ''}.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button loading={act.isPending} onClick={() => run('join')}>
              Participar
            </Button>
            <Button variant="outline" disabled={act.isPending} onClick={() => setAsking(true)}>
              Recusar vaga
            </Button>
          </div>
          {confirmLeave}
        </div>
      )
    case 'waiting':
      return (
        <div className="flex flex-col items-start gap-2">
          <p role="status">
            Você está na lista de espera ({me.position}º lugar). Avisaremos quando uma vaga abrir.
          </p>
          <Button variant="outline" loading={act.isPending} onClick={() => setAsking(true)}>
            Sair da lista de espera
          </Button>
          {confirmLeave}
        </div>
      )
    default:
      return event.full ? (
        <Button loading={act.isPending} onClick={() => run('wait')}>
          Entrar na lista de espera
        </Button>
      ) : (
        <Button loading={act.isPending} onClick={() => run('join')}>
          Participar
        </Button>
      )
  }
}

function MeetingLink({ event }: { event: Page }) {
  if (!event.online || event.me?.status !== 'participant') return null
  if (event.meeting_url) {
    return (
      <a href={event.meeting_url} target="_blank" rel="noopener noreferrer" className={buttonClasses('primary', 'md', 'self-start')}>
        <Video aria-hidden="true" className="size-4" /> Entrar na transmissão
      </a>
    )
  }
  if (event.meeting_opens_at) {
    return <p className="text-sm text-muted-foreground">O link da transmissão aparece aqui a partir de {shortMoment(event.meeting_opens_at)}.</p>
  }
  return null
}

/** /eventos/:slug: description, instructor, place or link, seats, participation, calendar and sharing. */
export default function EventPage() {
  const { slug = '' } = useParams()
  const event = useEvent(slug)
  usePageTitle(event.data?.title ?? 'Evento')
  const e = event.data
  const seats = e ? seatsLabel(e) : ''
  const otherZone = e ? inViewerZone(e) : ''
  return (
    <div className="flex flex-col gap-4">
      <Link to="/eventos" className="inline-flex items-center gap-1 text-sm text-primary hover:underline">
        <ArrowLeft aria-hidden className="size-4" /> Voltar para Eventos
      </Link>
      {event.isPending && <Spinner />}
      {event.isError &&
        (event.error instanceof ApiError && event.error.status === 404 ? (
          <p role="alert">Este evento não existe ou não está mais publicado.</p>
        ) : (
          <div role="alert" className="flex flex-col items-start gap-2">
            <p>Não foi possível carregar este evento. Verifique sua conexão.</p>
            <Button size="sm" variant="outline" onClick={() => event.refetch()}>
              Tentar novamente
            </Button>
          </div>
        ))}
      {e && (
        <article className="flex flex-col gap-5">
          <header className="flex flex-col gap-2">
            <div className="flex items-center gap-2">
              <EventTypeBadge type={e.event_type} />
              {e.price_text && <span className="text-sm text-muted-foreground">{e.price_text}</span>}
            </div>
            <h1 className="flex items-start gap-2 text-2xl font-bold tracking-tight md:text-3xl">
              <span aria-hidden="true">{e.icon || '📅'}</span> {e.title}
            </h1>
            {e.summary && <p className="text-muted-foreground">{e.summary}</p>}
          </header>
          <Card className="flex flex-col gap-4 p-5">
            <dl className="grid gap-2 text-sm sm:grid-cols-2">
              <div className="flex items-center gap-2">
                <CalendarDays aria-hidden="true" className="size-4 text-primary" />
                <dt className="sr-only">Data</dt>
                <dd>{formatEventDate(e.event_date)}</dd>
              </div>
              <div className="flex items-center gap-2">
                <Clock aria-hidden="true" className="size-4 text-primary" />
                <dt className="sr-only">Horário</dt>
                <dd>
                  {formatEventTime(e.event_time)}
                  {e.end_time ? ` às ${formatEventTime(e.end_time)}` : ''} <span className="text-muted-foreground">({e.time_zone === 'America/Sao_Paulo' ? 'horário de Brasília' : `fuso ${e.time_zone}`})</span>
                  {otherZone && <span className="block text-muted-foreground">{otherZone}</span>}
                </dd>
              </div>
              <div className="flex items-center gap-2">
                <MapPin aria-hidden="true" className="size-4 text-primary" />
                <dt className="sr-only">Local</dt>
                <dd>{placeLabel(e)}</dd>
              </div>
              {e.instructor && (
                <div className="flex items-center gap-2">
                  <User aria-hidden="true" className="size-4 text-primary" />
                  <dt className="sr-only">Instrutor(a)</dt>
                  <dd>{e.instructor}</dd>
                </div>
              )}
              <div className="flex items-center gap-2">
                <Users aria-hidden="true" className="size-4 text-primary" />
                <dt className="sr-only">Vagas</dt>
                <dd data-testid="event-seats">
                  {e.current_participants} {e.current_participants === 1 ? 'participante' : 'participantes'}
                  {seats ? ` · ${seats}` : ''}
                </dd>
              </div>
            </dl>
            <SeatActions event={e} />
            <MeetingLink event={e} />
            <div className="flex flex-wrap gap-2 border-t border-border pt-4">
              <a href={e.ics_url} download={`${e.slug}.ics`} className={buttonClasses('outline', 'sm')}>
                <Download aria-hidden="true" className="size-4" /> Adicionar à agenda
              </a>
              <a href={e.google_calendar_url} target="_blank" rel="noopener noreferrer" className={buttonClasses('outline', 'sm')}>
                <CalendarPlus aria-hidden="true" className="size-4" /> Google Agenda
              </a>
              <ShareButton title={e.title} text={e.summary} />
            </div>
          </Card>
          {e.description && (
            <section aria-label="Descrição" className="prose max-w-none dark:prose-invert">
              <Markdown skipHtml>{e.description}</Markdown>
            </section>
          )}
        </article>
      )}
    </div>
  )
}
