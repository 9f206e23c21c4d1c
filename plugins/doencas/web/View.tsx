import { useEffect, useId, useState } from 'react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useParams, useSearchParams } from 'react-router'
import { AlertTriangle, ArrowLeft, ChevronLeft, ChevronRight, Search, Star } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Card, CardContent } from '@/components/ui/Card'
import { CollapsibleFilters } from '@/components/ui/CollapsibleFilters'
import { Spinner } from '@/components/ui/Spinner'
import { cn } from '@/lib/cn'
import type { ToolViewProps } from '@/features/ferramentas'
import { diseasesKey, fetchDisease, fetchList, fetchOptions, setFavorite, type Disease, type DiseaseSummary, type Filters, type Option } from './api'

const BASE = '/ferramentas/doencas'

/** The diseases reference: a searchable list, and a disease's page at /ferramentas/doencas/<slug>. */
export default function DiseasesView(_props: ToolViewProps) {
  const rest = useParams()['*'] ?? ''
  const slug = rest.split('/')[0]
  return slug ? <DiseaseDetail slug={slug} /> : <DiseaseList />
}

function readFilters(sp: URLSearchParams): Filters {
  const page = Number(sp.get('pagina') ?? '1')
  return {
    q: sp.get('q') ?? '',
    especie: sp.get('especie') ?? '',
    sistema: sp.get('sistema') ?? '',
    zoonotica: sp.get('zoonotica') === 'true' ? 'true' : '',
    notificavel: sp.get('notificavel') === 'true' ? 'true' : '',
    favoritas: sp.get('favoritas') === 'true' ? 'true' : '',
    pagina: Number.isInteger(page) && page > 0 && page <= 1000 ? page : 1,
  }
}

function useFavorite() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ slug, on }: { slug: string; on: boolean }) => setFavorite(slug, on),
    onSettled: () => qc.invalidateQueries({ queryKey: diseasesKey }),
  })
}

function FavoriteButton({ disease, compact }: { disease: DiseaseSummary; compact?: boolean }) {
  const fav = useFavorite()
  const on = fav.isPending ? fav.variables.on : disease.favorite
  // A toggle keeps its name; aria-pressed says whether it is on. The icon-only
  // button of the list names its disease; the page's shows its text.
  const label = compact ? `Favoritar ${disease.name}` : undefined
  return (
    <span className="inline-flex flex-col items-end gap-1">
      <Button
        variant={compact ? 'ghost' : 'outline'}
        size={compact ? 'icon' : 'md'}
        aria-pressed={on}
        aria-label={label}
        title={on ? 'Nos seus favoritos' : 'Adicionar aos favoritos'}
        onClick={() => fav.mutate({ slug: disease.slug, on: !on })}
        disabled={fav.isPending}
      >
        <Star aria-hidden="true" className={cn('size-5', on && 'fill-amber-400 text-amber-500')} />
        {!compact && 'Favoritar'}
      </Button>
      {fav.error && (
        <span role="alert" className="text-xs text-destructive">
          {fav.error.message}
        </span>
      )}
    </span>
  )
}

function Select({ label, value, options, onChange, all }: { label: string; value: string; options: Option[]; onChange: (v: string) => void; all: string }) {
  const id = useId()
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className="h-11 w-full rounded-lg border border-border bg-card px-3 text-sm">
        <option value="">{all}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  )
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label className="flex min-h-11 items-center gap-2 text-sm font-medium">
      <input type="checkbox" className="size-5 accent-primary" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  )
}

function DiseaseList() {
  const [sp, setSp] = useSearchParams()
  const filters = readFilters(sp)
  const [text, setText] = useState(filters.q)
  // The search follows what is typed after a short pause; the address keeps it.
  useEffect(() => {
    if (text === filters.q) return
    const t = setTimeout(() => update({ q: text }), 300)
    return () => clearTimeout(t)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [text])
  const update = (patch: Partial<Filters>) => {
    const next = { ...filters, pagina: 1, ...patch }
    const p = new URLSearchParams()
    if (next.q.trim()) p.set('q', next.q.trim())
    for (const k of ['especie', 'sistema', 'zoonotica', 'notificavel', 'favoritas'] as const) if (next[k]) p.set(k, next[k])
    if (next.pagina > 1) p.set('pagina', String(next.pagina))
    setSp(p, { replace: patch.q !== undefined })
  }
  const options = useQuery({ queryKey: [...diseasesKey, 'options'], queryFn: fetchOptions, staleTime: 3_600_000 })
  const list = useQuery({ queryKey: [...diseasesKey, 'list', filters], queryFn: () => fetchList(filters), placeholderData: keepPreviousData })
  const active = [filters.especie, filters.sistema, filters.zoonotica, filters.notificavel, filters.favoritas].filter(Boolean).length
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.page_size)) : 1
  const searchId = useId()

  return (
    <div className="flex flex-col gap-4">
      <form
        role="search"
        className="flex flex-col gap-1.5"
        onSubmit={(e) => {
          e.preventDefault()
          update({ q: text })
        }}
      >
        <label htmlFor={searchId} className="text-sm font-medium">
          Buscar doença
        </label>
        <div className="relative">
          <Search aria-hidden="true" className="pointer-events-none absolute top-3 left-3 size-5 text-muted-foreground" />
          <input
            id={searchId}
            type="search"
            value={text}
            maxLength={200}
            onChange={(e) => setText(e.target.value)}
            placeholder="Nome, sinônimo, agente ou sinal clínico"
            className="h-11 w-full rounded-lg border border-border bg-card pr-3 pl-10 text-base focus-visible:outline-2 focus-visible:outline-ring"
          />
        </div>
        <p className="text-sm text-muted-foreground">Acentos e pequenos erros de digitação não atrapalham.</p>
      </form>
      <CollapsibleFilters active={active} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Select label="Espécie" value={filters.especie} all="Todas as espécies" options={options.data?.species ?? []} onChange={(v) => update({ especie: v })} />
        <Select label="Sistema" value={filters.sistema} all="Todos os sistemas" options={options.data?.systems ?? []} onChange={(v) => update({ sistema: v })} />
        <div className="flex flex-col sm:col-span-2 lg:col-span-2 lg:flex-row lg:items-end lg:gap-4">
          <Check label="Só zoonoses" checked={!!filters.zoonotica} onChange={(v) => update({ zoonotica: v ? 'true' : '' })} />
          <Check label="Só de notificação obrigatória" checked={!!filters.notificavel} onChange={(v) => update({ notificavel: v ? 'true' : '' })} />
          <Check label="Só minhas favoritas" checked={!!filters.favoritas} onChange={(v) => update({ favoritas: v ? 'true' : '' })} />
        </div>
      </CollapsibleFilters>

      <p role="status" aria-live="polite" className="text-sm text-muted-foreground">
        {list.data && (list.data.total === 1 ? '1 doença encontrada' : `${list.data.total} doenças encontradas`)}
      </p>
      {list.isPending && <Spinner />}
      {list.error && <p role="alert" className="text-destructive">{list.error.message}</p>}
      {list.data?.total === 0 && (
        <p className="text-muted-foreground">
          {filters.favoritas ? 'Você ainda não tem doenças favoritas com estes filtros.' : 'Nenhuma doença encontrada. Tente outro termo ou remova filtros.'}
        </p>
      )}
      <ul className="flex flex-col gap-3" aria-label="Doenças">
        {list.data?.items.map((d) => (
          <li key={d.slug}>
            <Card>
              <CardContent className="flex items-start gap-3 p-4">
                <div className="flex min-w-0 flex-1 flex-col gap-2">
                  <h2 className="text-lg font-semibold">
                    <Link to={`${BASE}/${d.slug}`} className="hover:underline">
                      {d.name}
                    </Link>
                  </h2>
                  {d.synonyms.length > 0 && <p className="text-sm text-muted-foreground">Também: {d.synonyms.join(', ')}</p>}
                  <p className="text-sm">{d.summary}</p>
                  <Tags d={d} />
                </div>
                <FavoriteButton disease={d} compact />
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
      {list.data && pages > 1 && (
        <nav aria-label="Páginas" className="flex items-center justify-between gap-2">
          <Button variant="outline" disabled={filters.pagina <= 1} onClick={() => update({ pagina: filters.pagina - 1 })}>
            <ChevronLeft aria-hidden="true" className="size-4" /> Anterior
          </Button>
          <span className="text-sm">
            Página {filters.pagina} de {pages}
          </span>
          <Button variant="outline" disabled={filters.pagina >= pages} onClick={() => update({ pagina: filters.pagina + 1 })}>
            Próxima <ChevronRight aria-hidden="true" className="size-4" />
          </Button>
        </nav>
      )}
    </div>
  )
}

function Tags({ d }: { d: DiseaseSummary }) {
  return (
    <ul className="flex flex-wrap gap-1.5" aria-label="Classificação">
      {d.species.map((s) => (
        <li key={s.value}>
          <Badge variant="outline">{s.label}</Badge>
        </li>
      ))}
      {d.system.label && (
        <li>
          <Badge variant="secondary">{d.system.label}</Badge>
        </li>
      )}
      {d.zoonotic && (
        <li>
          <Badge variant="warning">Zoonose</Badge>
        </li>
      )}
      {d.notifiable && (
        <li>
          <Badge className="bg-red-700 text-white">Notificação obrigatória</Badge>
        </li>
      )}
    </ul>
  )
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="flex flex-col gap-2" aria-labelledby={`secao-${title}`}>
      <h3 id={`secao-${title}`} className="text-lg font-semibold">
        {title}
      </h3>
      {children}
    </section>
  )
}

const Text = ({ children }: { children: string }) => <p className="whitespace-pre-line leading-relaxed">{children}</p>

function DiseaseDetail({ slug }: { slug: string }) {
  const q = useQuery({ queryKey: [...diseasesKey, 'disease', slug], queryFn: () => fetchDisease(slug) })
  const back = (
    <Link to={BASE} className={buttonClasses('link', 'sm', 'self-start px-0')}>
      <ArrowLeft aria-hidden="true" className="size-4" /> Todas as doenças
    </Link>
  )
  if (q.isPending) return <Spinner />
  if (q.error || !q.data)
    return (
      <div className="flex flex-col gap-3">
        {back}
        <p role="alert">{q.error?.message ?? 'Doença não encontrada.'}</p>
      </div>
    )
  const d: Disease = q.data
  return (
    <article className="flex flex-col gap-5" aria-labelledby="doenca-nome">
      {back}
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 flex-col gap-2">
          <h2 id="doenca-nome" className="text-2xl font-bold">
            {d.name}
          </h2>
          {d.synonyms.length > 0 && <p className="text-muted-foreground">Também conhecida como: {d.synonyms.join(', ')}</p>}
          <Tags d={d} />
        </div>
        <FavoriteButton disease={d} />
      </header>
      <p className="text-lg">{d.summary}</p>
      {d.notification.required && (
        <div role="note" className="flex gap-3 rounded-xl border border-red-700 bg-red-50 p-4 text-red-950 dark:bg-red-950/40 dark:text-red-50">
          <AlertTriangle aria-hidden="true" className="size-6 shrink-0" />
          <div className="flex flex-col gap-1">
            <p className="font-semibold">Doença de notificação obrigatória ao serviço veterinário oficial (IN MAPA nº 50/2013)</p>
            {d.notification.label && <p>{d.notification.label}.</p>}
            {d.notification.deadline && <p>{d.notification.deadline}</p>}
            {d.notification.note && <p>{d.notification.note}</p>}
          </div>
        </div>
      )}
      {!d.notification.required && d.notification.note && (
        <p role="note" className="rounded-xl border border-border bg-muted p-4">
          {d.notification.note}
        </p>
      )}
      <dl className="grid gap-3 sm:grid-cols-2">
        <div>
          <dt className="text-sm font-medium text-muted-foreground">Agente</dt>
          <dd>
            {d.agent} {d.agent_type.label && <span className="text-muted-foreground">({d.agent_type.label})</span>}
          </dd>
        </div>
        <div>
          <dt className="text-sm font-medium text-muted-foreground">Zoonose</dt>
          <dd>{d.zoonotic ? 'Sim: transmissível às pessoas' : 'Não'}</dd>
        </div>
        {d.woah_listed && (
          <div>
            <dt className="text-sm font-medium text-muted-foreground">WOAH</dt>
            <dd>Doença listada pela Organização Mundial de Saúde Animal</dd>
          </div>
        )}
      </dl>
      <Section title="Transmissão">
        <Text>{d.transmission}</Text>
      </Section>
      <Section title="Sinais clínicos">
        <Text>{d.clinical_signs}</Text>
      </Section>
      <Section title="Diagnóstico">
        <Text>{d.diagnosis}</Text>
      </Section>
      <Section title="Princípios de tratamento">
        <Text>{d.treatment}</Text>
        <p className="text-sm text-muted-foreground">
          Conteúdo de apoio ao médico-veterinário: não é prescrição. Doses e condutas são definidas na avaliação de cada paciente.
        </p>
      </Section>
      <Section title="Prevenção e controle">
        <Text>{d.prevention}</Text>
      </Section>
      {d.references.length > 0 && (
        <Section title="Referências">
          <ul className="list-disc pl-5 text-sm">
            {d.references.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        </Section>
      )}
    </article>
  )
}
