import { describe, expect, it } from 'vitest'
import { backofficeTarget } from './sections'

describe('the /admin/cursos screens in the backoffice', () => {
  it.each([
    ['', '/backoffice/#/content/cursos'],
    ['novo', '/backoffice/#/content/cursos/create'],
    ['c1/editar', '/backoffice/#/content/cursos/c1'],
    ['c1/preview', '/backoffice/#/content/cursos/c1'],
    ['c1/gerenciar', '/backoffice/#/content/cursos/c1/gerenciar'],
    ['instrutores', '/backoffice/#/content/cursos-instrutores'],
    ['instrutores/novo', '/backoffice/#/content/cursos-instrutores/create'],
    ['instrutores/i1/editar', '/backoffice/#/content/cursos-instrutores/i1'],
    ['categorias/nova', '/backoffice/#/content/cursos-categorias/create'],
    ['categorias/k1/editar', '/backoffice/#/content/cursos-categorias/k1'],
  ])('/admin/cursos/%s → %s', (rest, url) => {
    expect(backofficeTarget(rest)).toBe(url)
  })
})
