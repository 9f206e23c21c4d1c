import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import { Bell, BellOff, BriefcaseBusiness, Search, Trash2 } from 'lucide-react'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api'
import { usePageTitle } from '@/lib/usePageTitle'
import {
  emptyFilter,
  useDeleteSearch,
  useJobs,
  useSavedJobs,
  useSavedSearches,
  useSaveSearch,
  useSearchAlerts,
  type JobFilter,
  type JobSort,
} from '../api'
import { JobCard } from '../components/JobCard'
import { AREAS, CONTRACTS, STATES, WORKPLACES, filterLabel } from '../format'

const selectClass = 'h-10 w-full rounded-lg border border-border bg-card px-3 text-sm'

/**
 * /oportunidades: open jobs with a search (accents ignored by the server),
 * filters (state, city, area, contract, workplace, salary given), newest or
 * closing soon, paging; saved jobs; saved searches whose alerts announce new
 * matching jobs.
 */
export default function OpportunitiesPage() {
  usePageTitle('Oportunidades')
  const [filter, setFilter] = useState<JobFilter>(emptyFilter)
  const [typed, setTyped] = useState('')
  const [typedCity, setTypedCity] = useState('')
  const [sort, setSort] = useState<JobSort>('recentes')
  const [page, setPage] = useState(1)
  // Typed text applies 300 ms after the last key.
  useEffect(() => {
    const t = setTimeout(() => {
      setFilter((f) => (f.q === typed.trim() && f.city === typedCity.trim() ? f : { ...f, q: typed.trim(), city: typedCity.trim() }))
      setPage(1)
    }, 300)
    return () => clearTimeout(t)
  }, [typed, typedCity])
  const set = (patch: Partial<JobFilter>) => {
    setFilter((f) => ({ ...f, ...patch }))
    setPage(1)
  }
  const jobs = useJobs(filter, sort, page)
  const saved = useSavedJobs()
  const searches = useSavedSearches()
  const saveSearch = useSaveSearch()
  const alerts = useSearchAlerts()
  const del = useDeleteSearch()
  const pages = jobs.data ? Math.max(1, Math.ceil(jobs.data.total / jobs.data.page_size)) : 1
  const filtered = JSON.stringify(filter) !== JSON.stringify(emptyFilter)

  const onSaveSearch = () =>
    saveSearch.mutate(filter, {
      onSuccess: () => toast({ title: 'Busca salva. Avisaremos quando surgir uma vaga nova.', variant: 'success' }),
      onError: (e) => toast({ title: e instanceof ApiError ? e.message : 'Não foi possível salvar a busca.', variant: 'error' }),
    })

  return (
    <div className="flex min-w-0 flex-col gap-5">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight">
            <BriefcaseBusiness aria-hidden="true" className="size-7 text-primary" /> Oportunidades
          </h1>
          <p className="text-muted-foreground">Vagas, residências e plantões para médicos-veterinários.</p>
        </div>
        <Link to="/oportunidades/candidaturas" className={buttonClasses('outline', 'sm')}>
          Minhas candidaturas
        </Link>
      </header>

      <form
        role="search"
        aria-label="Filtrar vagas"
        className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(e) => e.preventDefault()}
      >
        <label className="relative block sm:col-span-2">
          <span className="sr-only">Buscar vagas</span>
          <Search aria-hidden className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
          <input
            type="search"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder="Buscar por cargo, empresa ou especialidade"
            maxLength={200}
            className="h-10 w-full rounded-lg border border-border bg-card pl-9 pr-3 text-sm"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Estado
          <select value={filter.state} onChange={(e) => set({ state: e.target.value })} className={selectClass}>
            <option value="">Todos os estados</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Cidade
          <input
            value={typedCity}
            onChange={(e) => setTypedCity(e.target.value)}
            maxLength={120}
            placeholder="Qualquer cidade"
            className="h-10 w-full rounded-lg border border-border bg-card px-3 text-sm"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Área
          <select value={filter.area} onChange={(e) => set({ area: e.target.value })} className={selectClass}>
            <option value="">Todas as áreas</option>
            {Object.entries(AREAS).map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Contrato
          <select value={filter.contract} onChange={(e) => set({ contract: e.target.value })} className={selectClass}>
            <option value="">Todos os contratos</option>
            {Object.entries(CONTRACTS).map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Modelo
          <select value={filter.workplace} onChange={(e) => set({ workplace: e.target.value })} className={selectClass}>
            <option value="">Remoto, híbrido ou presencial</option>
            {Object.entries(WORKPLACES).map(([v, l]) => (
              <option key={v} value={v}>
                {l}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Ordenar
          <select
            value={sort}
            onChange={(e) => {
              setSort(e.target.value as JobSort)
              setPage(1)
            }}
            className={selectClass}
          >
            <option value="recentes">Mais recentes</option>
            <option value="encerramento">Encerram primeiro</option>
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm font-medium">
          <input type="checkbox" checked={filter.salary_given} onChange={(e) => set({ salary_given: e.target.checked })} className="size-4" />
          Só vagas com salário informado
        </label>
        <div className="flex items-end">
          <Button type="button" variant="secondary" size="sm" onClick={onSaveSearch} disabled={!filtered || saveSearch.isPending}>
            <Bell aria-hidden className="size-4" /> Salvar busca e criar alerta
          </Button>
        </div>
      </form>

      <section aria-labelledby="vagas-resultados" className="flex flex-col gap-3">
        <h2 id="vagas-resultados" className="text-lg font-semibold">
          {jobs.data ? `${jobs.data.total} ${jobs.data.total === 1 ? 'vaga aberta' : 'vagas abertas'}` : 'Vagas abertas'}
        </h2>
        {jobs.isPending && <Spinner />}
        {jobs.isError && (
          <div role="alert" className="flex flex-col items-start gap-2">
            <p>{jobs.error instanceof ApiError ? jobs.error.message : 'Erro ao carregar vagas.'}</p>
            <Button size="sm" variant="outline" onClick={() => jobs.refetch()}>
              Tentar novamente
            </Button>
          </div>
        )}
        {jobs.data && jobs.data.jobs.length === 0 && <p className="text-muted-foreground">Nenhuma vaga encontrada.</p>}
        {jobs.data && jobs.data.jobs.length > 0 && (
          <ul className="grid gap-4 md:grid-cols-2 xl:grid-cols-3 [&>li]:min-w-0" aria-busy={jobs.isFetching}>
            {jobs.data.jobs.map((j) => (
              <li key={j.id}>
                <JobCard job={j} headingLevel={3} />
              </li>
            ))}
          </ul>
        )}
        {pages > 1 && (
          <nav aria-label="Páginas" className="flex items-center gap-3">
            <Button size="sm" variant="outline" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
              Anterior
            </Button>
            <span className="text-sm">
              Página {page} de {pages}
            </span>
            <Button size="sm" variant="outline" disabled={page >= pages} onClick={() => setPage((p) => p + 1)}>
              Próxima
            </Button>
          </nav>
        )}
      </section>

      <div className="grid gap-5 lg:grid-cols-2">
        <section aria-labelledby="vagas-salvas" className="flex flex-col gap-2">
          <h2 id="vagas-salvas" className="text-lg font-semibold">
            Vagas salvas
          </h2>
          {saved.data && saved.data.jobs.length === 0 && <p className="text-sm text-muted-foreground">Você ainda não salvou vagas.</p>}
          <ul className="flex flex-col gap-1">
            {saved.data?.jobs.map((j) => (
              <li key={j.id}>
                <Link to={`/oportunidades/${j.slug}`} className="text-sm text-primary hover:underline">
                  {j.title} — {j.city}/{j.state}
                </Link>
              </li>
            ))}
          </ul>
        </section>
        <section aria-labelledby="buscas-salvas" className="flex flex-col gap-2">
          <h2 id="buscas-salvas" className="text-lg font-semibold">
            Buscas salvas e alertas
          </h2>
          {searches.data && searches.data.searches.length === 0 && (
            <p className="text-sm text-muted-foreground">Filtre as vagas e salve a busca para ser avisado de vagas novas.</p>
          )}
          <ul className="flex flex-col gap-2">
            {searches.data?.searches.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-border p-2">
                <button
                  type="button"
                  className="text-left text-sm text-primary hover:underline"
                  onClick={() => {
                    setFilter({ q: s.q, state: s.state, city: s.city, area: s.area, contract: s.contract, workplace: s.workplace, salary_given: s.salary_given })
                    setTyped(s.q)
                    setTypedCity(s.city)
                    setPage(1)
                  }}
                >
                  {filterLabel(s)}
                </button>
                <span className="flex gap-1">
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-pressed={s.alerts}
                    aria-label={s.alerts ? `Desligar alertas de ${filterLabel(s)}` : `Ligar alertas de ${filterLabel(s)}`}
                    onClick={() => alerts.mutate({ id: s.id, alerts: !s.alerts })}
                  >
                    {s.alerts ? <Bell aria-hidden className="size-4" /> : <BellOff aria-hidden className="size-4" />}
                    {s.alerts ? 'Alertas ligados' : 'Alertas desligados'}
                  </Button>
                  <Button size="sm" variant="ghost" aria-label={`Excluir busca ${filterLabel(s)}`} onClick={() => del.mutate(s.id)}>
                    <Trash2 aria-hidden className="size-4" />
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </div>
  )
}
