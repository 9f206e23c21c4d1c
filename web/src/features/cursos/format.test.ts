import { describe, expect, it } from 'vitest'
import { DEFAULT_QUERY, hoursLabel, listURL, parseQuery, preview, toSearchParams, type CourseQuery } from './format'

describe('course filters in the URL and in the request', () => {
  it("sends no filter for 'Todos' and the default sort explicitly", () => {
    expect(listURL(DEFAULT_QUERY, 1)).toBe('/api/cursos?sort=popular&page=1')
    expect(parseQuery(new URLSearchParams('categoria=Todos&nivel=Todos&instrutor=Todos&status=x&ordem=y'))).toEqual(DEFAULT_QUERY)
    expect(toSearchParams(DEFAULT_QUERY).toString()).toBe('')
  })

  it('round-trips every filter through the pt-BR query string', () => {
    const q: CourseQuery = { category: 'cat-1', level: 'Avançado', instructor: 'inst-2', status: 'favorites', q: 'cães idosos', sort: 'rating' }
    const params = toSearchParams(q)
    expect(Object.fromEntries(params)).toEqual({ categoria: 'cat-1', nivel: 'Avançado', instrutor: 'inst-2', status: 'favoritos', busca: 'cães idosos', ordem: 'avaliacao' })
    expect(parseQuery(params)).toEqual(q)
    const api = new URL(listURL(q, 3), 'http://x').searchParams
    expect(Object.fromEntries(api)).toEqual({ category: 'cat-1', level: 'Avançado', instructor: 'inst-2', status: 'favorites', q: 'cães idosos', sort: 'rating', page: '3' })
  })

  it('maps each status and sort word', () => {
    expect(parseQuery(new URLSearchParams('status=matriculados')).status).toBe('enrolled')
    expect(parseQuery(new URLSearchParams('status=concluidos')).status).toBe('completed')
    expect(parseQuery(new URLSearchParams('ordem=recentes')).sort).toBe('newest')
    expect(parseQuery(new URLSearchParams('ordem=titulo')).sort).toBe('title')
  })
})

describe('preview', () => {
  it('cuts at 100 characters with an ellipsis, keeping the server’s own preview', () => {
    const long = 'á'.repeat(150)
    expect(preview(long)).toBe('á'.repeat(100) + '…')
    expect(preview('á'.repeat(100) + '…')).toBe('á'.repeat(100) + '…')
    expect(preview('Curto')).toBe('Curto')
    // Whole code points: an emoji is never split.
    expect(Array.from(preview('🐶'.repeat(120)))).toHaveLength(101)
  })
})

describe('hoursLabel', () => {
  it('writes pt-BR hours', () => {
    expect(hoursLabel(1)).toBe('1 hora')
    expect(hoursLabel(1.5)).toBe('1,5 hora')
    expect(hoursLabel(12)).toBe('12 horas')
  })
})
