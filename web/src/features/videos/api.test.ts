import { describe, expect, it } from 'vitest'
import { ApiError } from '@/lib/api'
import { emptyQuery, listURL, loadFailure } from './api'
import { likesLabel, viewsLabel } from './format'

describe('videos api helpers', () => {
  it('builds the list URL with only the filters in use', () => {
    expect(listURL(emptyQuery, 1)).toBe('/api/videos?page=1')
    expect(listURL({ category: 'cat 1', q: 'sutura felina', favorites: true, completed: true }, 3)).toBe(
      '/api/videos?category=cat+1&q=sutura+felina&favorites=true&completed=true&page=3',
    )
  })

  it("says 'Erro ao carregar vídeos' for the API's failures and 'Erro desconhecido' for anything else", () => {
    expect(loadFailure(new ApiError(500, 'internal', 'x'))).toBe('Erro ao carregar vídeos')
    expect(loadFailure(new ApiError(0, 'ENETWORK', 'x'))).toBe('Erro ao carregar vídeos')
    expect(loadFailure(new TypeError('boom'))).toBe('Erro desconhecido')
  })

  it('labels counts in pt-BR, never below 0', () => {
    expect(likesLabel(-1)).toBe('0 curtidas')
    expect(likesLabel(1)).toBe('1 curtida')
    expect(viewsLabel(1)).toBe('1 visualização')
    expect(viewsLabel(1234)).toBe('1.234 visualizações')
  })
})
