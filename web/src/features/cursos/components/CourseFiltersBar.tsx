import { useEffect, useId, useRef, useState } from 'react'
import { Search } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { CollapsibleFilters } from '@/components/ui/CollapsibleFilters'
import { useCourseFilters } from '../api'
import { ALL, SORT_OPTIONS, STATUS_OPTIONS, hasFilters, type CourseQuery, type CourseSort, type CourseStatus } from '../format'

/** Typing settles this long before the search runs (and lands in the URL). */
export const SEARCH_DEBOUNCE_MS = 400

const selectClass = 'h-10 w-full rounded-lg border border-border bg-card px-3 text-sm'

function Select({ label, value, onChange, options }: { label: string; value: string; onChange: (v: string) => void; options: Array<{ value: string; label: string }> }) {
  const id = useId()
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} className={selectClass}>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  )
}

/** Search, the four filters ('Todos' = no filter) and the sort of /cursos. */
export function CourseFiltersBar({ query, onChange }: { query: CourseQuery; onChange: (q: CourseQuery) => void }) {
  const { data: options } = useCourseFilters()
  const [text, setText] = useState(query.q)
  const searchId = useId()
  // The latest query without re-arming the debounce on every change of it.
  const latest = useRef({ query, onChange })
  useEffect(() => {
    latest.current = { query, onChange }
  })

  // The URL changed under us (back button, 'Limpar filtros'): show its search.
  const [shownQ, setShownQ] = useState(query.q)
  if (shownQ !== query.q) {
    setShownQ(query.q)
    // Our own debounced search coming back keeps what is typed (a trailing space).
    if (query.q !== text.trim()) setText(query.q)
  }

  useEffect(() => {
    const q = text.trim()
    if (q === latest.current.query.q) return
    const timer = setTimeout(() => latest.current.onChange({ ...latest.current.query, q }), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text])

  const set = (patch: Partial<CourseQuery>) => onChange({ ...query, ...patch })
  const all = { value: '', label: ALL }
  return (
    <section aria-label="Filtros de cursos" className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-4 shadow-sm">
      <div className="flex flex-col gap-1">
        <label htmlFor={searchId} className="text-sm font-medium">
          Buscar cursos
        </label>
        <div className="relative">
          <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" />
          <input
            id={searchId}
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            placeholder="Título, tema, instrutor..."
            className="h-11 w-full rounded-lg border border-border bg-card pl-9 pr-3 text-base placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring"
          />
        </div>
      </div>
      <CollapsibleFilters
        active={[query.category, query.level, query.instructor].filter(Boolean).length + (query.status !== 'todos' ? 1 : 0)}
        className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5"
      >
        <Select label="Categoria" value={query.category} onChange={(category) => set({ category })} options={[all, ...(options?.categories ?? []).map((c) => ({ value: c.id, label: c.name }))]} />
        <Select label="Nível" value={query.level} onChange={(level) => set({ level })} options={[all, ...(options?.levels ?? []).map((l) => ({ value: l, label: l }))]} />
        <Select label="Instrutor" value={query.instructor} onChange={(instructor) => set({ instructor })} options={[all, ...(options?.instructors ?? []).map((i) => ({ value: i.id, label: i.name }))]} />
        <Select label="Status" value={query.status} onChange={(status) => set({ status: status as CourseStatus })} options={STATUS_OPTIONS.map(({ value, label }) => ({ value, label }))} />
        <Select label="Ordenar por" value={query.sort} onChange={(sort) => set({ sort: sort as CourseSort })} options={SORT_OPTIONS.map(({ value, label }) => ({ value, label }))} />
      </CollapsibleFilters>
      {hasFilters(query) && (
        <Button
          variant="link"
          size="sm"
          className="self-start px-0"
          onClick={() => {
            setText('')
            onChange({ ...query, category: '', level: '', instructor: '', status: 'todos', q: '' })
          }}
        >
          Limpar filtros
        </Button>
      )}
    </section>
  )
}
