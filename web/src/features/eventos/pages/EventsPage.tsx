import { useEffect, useState } from 'react'
import { CalendarDays, Search } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { cn } from '@/lib/cn'
import { usePageTitle } from '@/lib/usePageTitle'
import { useEvents, type When } from '../api'
import { EventCard } from '../components/EventCard'
import { EVENT_TYPES, monthLabel } from '../format'

/**
 * /eventos: upcoming events by date then time, past ones in their own tab,
 * a search (partial words, accents ignored by the server) and filters by
 * type and by month (only months that hold events).
 */
export default function EventsPage() {
  usePageTitle('Eventos')
  const [when, setWhen] = useState<When>('upcoming')
  const [type, setType] = useState('')
  const [month, setMonth] = useState('')
  const [typed, setTyped] = useState('')
  const [q, setQ] = useState('')
  // The search runs 300 ms after the last key.
  useEffect(() => {
    const t = setTimeout(() => setQ(typed.trim()), 300)
    return () => clearTimeout(t)
  }, [typed])
  const events = useEvents({ when, type, month, q })
  // Months that hold events of this period and type; the chosen one stays
  // offered while a new answer loads.
  const [months, setMonths] = useState<string[]>([])
  const answered = events.data?.months
  useEffect(() => {
    if (answered) setMonths(answered)
  }, [answered])
  const monthOptions = month && !months.includes(month) ? [month, ...months] : months
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
        <label className="relative block w-full max-w-xl">
          <span className="sr-only">Buscar eventos</span>
          <Search aria-hidden className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
          <input
            type="search"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="Buscar eventos"
            maxLength={200}
            className="h-10 w-full rounded-lg border border-border bg-card pl-9 pr-3 text-sm"
          />
        </label>
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
            {monthOptions.map((m) => (
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
          <p className="text-muted-foreground">
            {q ? 'Nenhum evento encontrado' : when === 'upcoming' ? 'Nenhum evento próximo' : 'Nenhum evento passado'}
          </p>
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
