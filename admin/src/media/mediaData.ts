import type { DataProvider, GetListParams } from 'ra-core'
import { MEDIA_API } from './api'

type Client = (url: string, options?: { method?: string }) => Promise<{ json: any; headers: Headers }>

/**
 * The list's query: react-admin's range/sort/filter (as ra-data-simple-rest
 * sends them) and the same as plain q, kind, state, page and per_page, for
 * a server that reads either.
 */
export function mediaListURL(params: Pick<GetListParams, 'pagination' | 'sort' | 'filter'>): string {
  const { page, perPage } = params.pagination ?? { page: 1, perPage: 25 }
  const filter: Record<string, string> = {}
  for (const key of ['q', 'kind', 'state']) {
    const v = params.filter?.[key]
    if (typeof v === 'string' && v.trim()) filter[key] = v.trim()
  }
  const q = new URLSearchParams()
  if (params.sort?.field) q.set('sort', JSON.stringify([params.sort.field, params.sort.order]))
  q.set('range', JSON.stringify([(page - 1) * perPage, page * perPage - 1]))
  if (Object.keys(filter).length) q.set('filter', JSON.stringify(filter))
  for (const [k, v] of Object.entries(filter)) q.set(k, v)
  q.set('page', String(page))
  q.set('per_page', String(perPage))
  return `${MEDIA_API}?${q}`
}

/** The total from Content-Range ("media 0-24/319") or X-Total-Count. */
export function totalOf(headers: Headers, fallback: number): number {
  const range = headers.get('Content-Range')
  const fromRange = range ? Number(range.split('/').pop()) : NaN
  if (Number.isFinite(fromRange)) return fromRange
  const count = Number(headers.get('X-Total-Count') ?? NaN)
  return Number.isFinite(count) ? count : fallback
}

/** The media resource's list read; every other call goes to the base provider. */
export function withMedia(base: DataProvider, client: Client): DataProvider {
  return {
    ...base,
    async getList(resource, params) {
      if (resource !== 'media') return base.getList(resource, params)
      const { json, headers } = await client(mediaListURL(params))
      const data = Array.isArray(json) ? json : []
      return { data, total: totalOf(headers, data.length) }
    },
  }
}
