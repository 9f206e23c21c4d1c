import { useState } from 'react'
import { CalendarDays } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { cn } from '@/lib/cn'
import { usePageTitle } from '@/lib/usePageTitle'
import { useEvents, type When } from '../api'
import { EventCard } from '../components/EventCard'
import { EVENT_TYPES, monthLabel } from '../format'

/** The next twelve months (upcoming) or the last twelve (past), as YYYY-MM. */
function months(when: When, today: Date): string[] {
  const out: string[] = []
  for (let i = 0; i < 12; i++) {
    const d = new Date(today.getFullYear(), today.getMonth() + (when === 'upcoming' ? i : -i), 1)
    out.push(`${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`)
  }
  return out
}

/** /eventos: upcoming events by date then time, past ones in their own tab, filters by type and month. */
export default function EventsPage() {
  usePageTitle('Eventos')
  const [when, setWhen] = useState<When>('upcoming')
  const [type, setType] = useState('')
  const [month, setMonth] = useState('')
  const events = useEvents({ when, type, month })
  const tabs: { id: When; label: string }[] = [
    { id: 'upcoming', label: 'Próximos' },
    { id: 'past', label: 'Passados' },
  ]
  return (
    <div className="flex min-w-0 flex-col gap-5">
      <header className="flex flex-col gap-1">
        <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight">
          <CalendarDays aria-hidden="true" className="size-7 text-primary" /> Eventos
        </h1>
        <p className="text-muted-foreground">Workshops, cursos intensivos e congressos para a sua rotina veterinária.</p>
      </header>
      <div role="tablist" aria-label="Período" className="flex gap-2">
        {tabs.map((t) => (
          <button
            key={t.id}
            role="tab"
            type="button"
            aria-selected={when === t.id}
            onClick={() => {
              setWhen(t.id)
              setMonth('')
            }}
            className={cn(
              'rounded-full px-4 py-1.5 text-sm font-medium',
              when === t.id ? 'bg-primary text-primary-foreground' : 'bg-muted text-foreground hover:bg-accent',
            )}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div className="flex flex-wrap gap-3">
        <label className="flex flex-col gap-1 text-sm font-medium">
          Tipo
          <select value={type} onChange={(e) => setType(e.target.value)} className="h-10 rounded-lg border border-border bg-card px-3">
            <option value="">Todos os tipos</option>
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Mês
          <select value={month} onChange={(e) => setMonth(e.target.value)} className="h-10 rounded-lg border border-border bg-card px-3">
            <option value="">Todos os meses</option>
            {months(when, new Date()).map((m) => (
              <option key={m} value={m}>
                {monthLabel(m)}
              </option>
            ))}
          </select>
        </label>
      </div>
      <section role="tabpanel" aria-label={when === 'upcoming' ? 'Próximos eventos' : 'Eventos passados'}>
        {events.isPending && <Spinner />}
        {events.isError && (
          <div role="alert" className="flex flex-col items-start gap-2">
            <p>Erro ao carregar eventos.</p>
            <Button size="sm" variant="outline" onClick={() => events.refetch()}>
              Tentar novamente
            </Button>
          </div>
        )}
        {events.data && events.data.events.length === 0 && (
          <p className="text-muted-foreground">{when === 'upcoming' ? 'Nenhum evento próximo' : 'Nenhum evento passado'}</p>
        )}
        {events.data && events.data.events.length > 0 && (
          <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3 [&>li]:min-w-0">
            {events.data.events.map((e) => (
              <li key={e.id}>
                <EventCard event={e} past={when === 'past'} headingLevel={2} />
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  )
}
