import { describe, expect, it } from 'vitest'
import { matchContentRoute, listURL, type ContentType } from './api'
import { badges, coverURL, formatDate, readingTime } from './format'

const news: ContentType = {
  id: 'noticias',
  singular: 'Notícia',
  plural: 'Notícias',
  icon: 'newspaper',
  route: '/noticias-veterinarias',
  list: { page_size: 20 },
  fields: [
    { name: 'cover', label: 'Imagem de capa', kind: 'image' },
    { name: 'category', label: 'Categoria', kind: 'select', options: [{ value: 'cirurgia', label: 'Cirurgia' }] },
    { name: 'reading_minutes', label: 'Tempo de leitura', kind: 'number', computed: true },
  ],
}

describe('content routes and formats', () => {
  it('find the type and the slug from the path', () => {
    expect(matchContentRoute([news], '/noticias-veterinarias')).toEqual({ type: news, slug: '' })
    expect(matchContentRoute([news], '/noticias-veterinarias/')).toEqual({ type: news, slug: '' })
    expect(matchContentRoute([news], '/noticias-veterinarias/vacina-raiva')).toEqual({ type: news, slug: 'vacina-raiva' })
    expect(matchContentRoute([news], '/noticias-veterinarias/a/b')).toBeNull()
    expect(matchContentRoute([news], '/noticias')).toBeNull()
    expect(matchContentRoute(undefined, '/noticias-veterinarias')).toBeNull()
  })

  it('build list queries with search, filters and the cursor', () => {
    expect(listURL('noticias', '', {})).toBe('/api/content/noticias')
    expect(listURL('noticias', ' cirurgia ', { category: 'cirurgia', tags: '' }, 'abc')).toBe(
      '/api/content/noticias?q=cirurgia&f.category=cirurgia&cursor=abc',
    )
  })

  it('show covers, categories, reading time and dates the Brazilian way', () => {
    const item = {
      id: '1', type: 'noticias', slug: 's', title: 'T', summary: '', published_at: '2026-11-23T15:00:00Z', updated_at: '',
      fields: { cover: 'content/2026/11/x.jpg', category: 'cirurgia', reading_minutes: 4 },
      engagement: { favorites: 0, likes: 0, dislikes: 0, views: 0, favorited: false, reaction: '' as const },
    }
    expect(coverURL(news, item)).toBe('/uploads/content/2026/11/x.jpg')
    expect(badges(news, item)).toEqual(['Cirurgia'])
    expect(readingTime(item)).toBe('4 min de leitura')
    expect(formatDate('2026-11-23T15:00:00Z')).toBe('23 de novembro de 2026')
  })
})
