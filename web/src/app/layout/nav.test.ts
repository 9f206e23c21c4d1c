import { describe, expect, it } from 'vitest'
import { BOTTOM_NAV_ENTRIES, SIDEBAR_ENTRIES, isEntryActive, visibleSidebarEntries } from './nav'

describe('sidebar active entry', () => {
  it('Home is active only on exactly /', () => {
    expect(isEntryActive('/', '/')).toBe(true)
    expect(isEntryActive('/', '/cursos')).toBe(false)
    expect(isEntryActive('/', '/profile')).toBe(false)
  })

  it('other entries are active when the path starts with their route', () => {
    expect(isEntryActive('/cursos', '/cursos')).toBe(true)
    expect(isEntryActive('/cursos', '/cursos/42/aula/7')).toBe(true)
    expect(isEntryActive('/ferramentas', '/ferramentas/calculadoras')).toBe(true)
    expect(isEntryActive('/admin', '/admin/cursos/novo')).toBe(true)
    expect(isEntryActive('/cursos', '/desafios')).toBe(false)
    expect(isEntryActive('/pricing', '/')).toBe(false)
  })

  it('exactly one sidebar entry is active on a nested tool route', () => {
    const active = SIDEBAR_ENTRIES.filter((e) => isEntryActive(e.to, '/ferramentas/simulado-vet/quiz'))
    expect(active.map((e) => e.label)).toEqual(['Ferramentas'])
  })
})

describe('sidebar entries', () => {
  const labels = (opts: { isPremium: boolean; isSuperAdmin: boolean }) => visibleSidebarEntries(opts).map((e) => e.to)

  it('has the ten routes in menu order', () => {
    expect(SIDEBAR_ENTRIES.map((e) => e.to)).toEqual([
      '/',
      '/vetclube-ia',
      '/oportunidades',
      '/conteudos-exclusivos',
      '/cursos',
      '/desafios',
      '/ferramentas',
      '/indique-e-ganhe',
      '/pricing',
      '/admin',
    ])
  })

  it('hides Plans for premium users and Admin for everyone but super admins', () => {
    expect(labels({ isPremium: false, isSuperAdmin: false })).toContain('/pricing')
    expect(labels({ isPremium: false, isSuperAdmin: false })).not.toContain('/admin')
    expect(labels({ isPremium: true, isSuperAdmin: false })).not.toContain('/pricing')
    expect(labels({ isPremium: true, isSuperAdmin: true })).toContain('/admin')
    expect(labels({ isPremium: false, isSuperAdmin: true })).toHaveLength(10)
  })

  it('bottom nav holds Início, Feed, VetClube IA, Cursos, Perfil', () => {
    expect(BOTTOM_NAV_ENTRIES.map((e) => [e.label, e.to])).toEqual([
      ['Início', '/'],
      ['Feed', '/community'],
      ['VetClube IA', '/vetclube-ia'],
      ['Cursos', '/cursos'],
      ['Perfil', '/profile'],
    ])
  })
})
