import { useEffect, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { Heart, Search } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { cn } from '@/lib/cn'
import { useContentList, useEngagement, type ContentItem, type ContentType } from './api'
import { badges, coverURL, formatDate, readingTime } from './format'

function FavoriteButton({ item }: { item: ContentItem }) {
  const { favorite } = useEngagement(item)
  const on = item.engagement.favorited
  return (
    <button
      type="button"
      className="rounded-full p-2 text-muted-foreground hover:bg-muted hover:text-primary"
      aria-label={on ? `Remover "${item.title}" dos favoritos` : `Favoritar "${item.title}"`}
      aria-pressed={on}
      onClick={() => favorite.mutate(!on)}
    >
      <Heart aria-hidden className={cn('size-5', on && 'fill-current text-primary')} />
    </button>
  )
}

function ItemCard({ type, item }: { type: ContentType; item: ContentItem }) {
  const cover = coverURL(type, item)
  const to = `${type.route}/${encodeURIComponent(item.slug)}`
  return (
    <Card className="flex flex-col overflow-hidden">
      {cover && (
        <Link to={to} tabIndex={-1} aria-hidden>
          <img src={cover} alt="" loading="lazy" className="aspect-[16/9] w-full object-cover" />
        </Link>
      )}
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
          {badges(type, item).map((b) => (
            <Badge key={b}>{b}</Badge>
          ))}
          <time dateTime={item.published_at}>{formatDate(item.published_at)}</time>
          {readingTime(item) && <span className="whitespace-nowrap">· {readingTime(item)}</span>}
        </div>
        <h2 className="text-lg font-semibold leading-snug">
          <Link to={to} className="hover:underline">
            {item.title}
          </Link>
        </h2>
        {item.summary && <p className="line-clamp-3 text-sm text-muted-foreground">{item.summary}</p>}
        <div className="mt-auto flex justify-end">
          <FavoriteButton item={item} />
        </div>
      </div>
    </Card>
  )
}

/**
 * A type's published items, newest first: search (Portuguese, accents and
 * word endings ignored by the server), one chip row per filterable choice
 * field, and the next page loaded as the reader reaches the end.
 */
export function ContentListPage({ type }: { type: ContentType }) {
  usePageTitle(type.plural)
  const [params, setParams] = useSearchParams()
  const q = params.get('q') ?? ''
  const [typed, setTyped] = useState(q)
  const filterFields = type.fields.filter((f) => f.filterable && f.kind === 'select' && f.options?.length)
  const filters: Record<string, string> = {}
  for (const f of filterFields) filters[f.name] = params.get(f.name) ?? ''

  // The search runs 300 ms after the last key, and lives in the URL.
  useEffect(() => {
    if (typed === q) return
    const t = setTimeout(() => {
      const next = new URLSearchParams(params)
      if (typed.trim()) next.set('q', typed)
      else next.delete('q')
      setParams(next, { replace: true })
    }, 300)
    return () => clearTimeout(t)
  }, [typed, q, params, setParams])

  const list = useContentList(type.id, q, filters)
  const items = list.data?.pages.flatMap((p) => p.items) ?? []
  const sentinel = useRef<HTMLDivElement>(null)
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list
  useEffect(() => {
    const el = sentinel.current
    if (!el || !hasNextPage) return
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && !isFetchingNextPage) void fetchNextPage()
    }, { rootMargin: '400px' })
    io.observe(el)
    return () => io.disconnect()
  }, [hasNextPage, isFetchingNextPage, fetchNextPage])

  const setFilter = (name: string, value: string) => {
    const next = new URLSearchParams(params)
    if (value) next.set(name, value)
    else next.delete(name)
    setParams(next, { replace: true })
  }
  const noun = type.plural.toLowerCase()
  return (
    <div className="flex flex-col gap-5">
      <header className="flex flex-col gap-3">
        <h1 className="text-2xl font-bold">{type.plural}</h1>
        <label className="relative block max-w-xl">
          <span className="sr-only">Buscar {noun}</span>
          <Search aria-hidden className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" />
          <input
            type="search"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            placeholder={`Buscar ${noun}`}
            className="h-10 w-full rounded-lg border border-border bg-card pl-9 pr-3 text-sm"
          />
        </label>
        {filterFields.map((f) => (
          <div key={f.name} role="group" aria-label={f.label} className="flex flex-wrap gap-2">
            {[{ value: '', label: 'Todas' }, ...(f.options ?? [])].map((o) => (
              <Button
                key={o.value}
                size="sm"
                variant={filters[f.name] === o.value ? 'primary' : 'outline'}
                aria-pressed={filters[f.name] === o.value}
                onClick={() => setFilter(f.name, o.value)}
              >
                {o.label}
              </Button>
            ))}
          </div>
        ))}
      </header>
      {list.isPending && <Spinner label={`Carregando ${noun}...`} />}
      {list.isError && (
        <div role="alert" className="flex flex-col items-start gap-2 rounded-xl border border-border p-4">
          <p>Não foi possível carregar {noun}. Verifique sua conexão.</p>
          <Button size="sm" variant="outline" onClick={() => list.refetch()}>
            Tentar novamente
          </Button>
        </div>
      )}
      {list.isSuccess && items.length === 0 && (
        <p className="text-muted-foreground">{q || Object.values(filters).some(Boolean) ? 'Nada encontrado para esta busca.' : 'Nada publicado ainda.'}</p>
      )}
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" aria-busy={list.isFetching}>
        {items.map((item) => (
          <ItemCard key={item.id} type={type} item={item} />
        ))}
      </div>
      <div ref={sentinel} />
      {hasNextPage && (
        <Button variant="outline" className="self-center" disabled={isFetchingNextPage} onClick={() => fetchNextPage()}>
          {isFetchingNextPage ? 'Carregando...' : 'Carregar mais'}
        </Button>
      )}
    </div>
  )
}
