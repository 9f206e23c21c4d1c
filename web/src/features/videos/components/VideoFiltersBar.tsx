import { useEffect, useId, useRef, useState } from 'react'
import { Search } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { CollapsibleFilters } from '@/components/ui/CollapsibleFilters'
import { hasFilters, useVideoCategories, type VideoQuery } from '../api'
import { messages } from '../messages'

/** Typing settles this long before the search runs. */
export const SEARCH_DEBOUNCE_MS = 400

/** Category, search (debounced), 'Apenas favoritos' and 'Apenas concluídos'. */
export function VideoFiltersBar({ query, onChange }: { query: VideoQuery; onChange: (q: VideoQuery) => void }) {
  const categories = useVideoCategories()
  const [text, setText] = useState(query.q)
  const searchId = useId()
  const categoryId = useId()
  const latest = useRef({ query, onChange })
  useEffect(() => {
    latest.current = { query, onChange }
  })

  useEffect(() => {
    const q = text.trim()
    if (q === latest.current.query.q) return
    const timer = setTimeout(() => latest.current.onChange({ ...latest.current.query, q }), SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [text])

  const set = (patch: Partial<VideoQuery>) => onChange({ ...query, ...patch })
  const check = 'h-4 w-4 rounded border-border accent-primary'
  return (
    <section aria-label="Filtros de vídeos" className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-4 shadow-sm">
      <div className="flex flex-col gap-1">
        <label htmlFor={searchId} className="text-sm font-medium">
          Buscar vídeos
        </label>
        <div className="relative">
          <Search aria-hidden="true" className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" />
          <input
            id={searchId}
            type="search"
            value={text}
            maxLength={200}
            onChange={(e) => setText(e.target.value)}
            placeholder="Título, tema, instrutor..."
            className="h-11 w-full rounded-lg border border-border bg-card pl-9 pr-3 text-base placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring"
          />
        </div>
      </div>
      <CollapsibleFilters
        active={(query.category ? 1 : 0) + (query.favorites ? 1 : 0) + (query.completed ? 1 : 0)}
        className="grid gap-3 md:grid-cols-[minmax(0,1fr)_auto] md:items-end"
      >
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={categoryId} className="text-sm font-medium">
            Categoria
          </label>
          <select id={categoryId} value={query.category} onChange={(e) => set({ category: e.target.value })} className="h-11 w-full rounded-lg border border-border bg-card px-3 text-sm">
            <option value="">Todas</option>
            {(categories.data ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          {categories.isError && (
            <p role="alert" className="text-xs font-medium text-destructive">
              {messages.categoriesFailed}
            </p>
          )}
        </div>
        <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
          <label className="inline-flex items-center gap-2 text-sm font-medium">
            <input type="checkbox" className={check} checked={query.favorites} onChange={(e) => set({ favorites: e.target.checked })} />
            Apenas favoritos
          </label>
          <label className="inline-flex items-center gap-2 text-sm font-medium">
            <input type="checkbox" className={check} checked={query.completed} onChange={(e) => set({ completed: e.target.checked })} />
            Apenas concluídos
          </label>
          {hasFilters(query) && (
            <Button
              variant="link"
              size="sm"
              className="px-0"
              onClick={() => {
                setText('')
                onChange({ category: '', q: '', favorites: false, completed: false })
              }}
            >
              Limpar filtros
            </Button>
          )}
        </div>
      </CollapsibleFilters>
    </section>
  )
}
