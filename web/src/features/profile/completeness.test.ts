import { describe, expect, it } from 'vitest'
import { completenessPercent, isProfileComplete, missingProfileFields } from './completeness'

const complete = {
  first_name: 'Maria',
  last_name: 'Souza',
  title: 'Médica Veterinária',
  biography: 'Clínica de pequenos animais há 8 anos.',
  specialties: ['clinica_geral'],
  has_crmv: true,
  crmv: 'CRMV-SP 12345',
}

describe('missingProfileFields', () => {
  it('is empty for a complete profile', () => {
    expect(missingProfileFields(complete)).toEqual([])
    expect(isProfileComplete(complete)).toBe(true)
    expect(completenessPercent(complete)).toBe(100)
  })

  it('lists every missing field of an empty profile', () => {
    expect(missingProfileFields({})).toEqual(['first_name', 'last_name', 'title', 'biography', 'specialties'])
    expect(missingProfileFields({ has_crmv: true })).toEqual([
      'first_name', 'last_name', 'title', 'biography', 'specialties', 'crmv',
    ])
    expect(completenessPercent({})).toBe(0)
  })

  it('treats blank names as missing', () => {
    expect(missingProfileFields({ ...complete, first_name: '   ' })).toEqual(['first_name'])
    expect(missingProfileFields({ ...complete, last_name: null })).toEqual(['last_name'])
  })

  it('needs a title of at least 3 characters after trimming', () => {
    expect(missingProfileFields({ ...complete, title: 'MV' })).toEqual(['title'])
    expect(missingProfileFields({ ...complete, title: ' MV ' })).toEqual(['title'])
    expect(missingProfileFields({ ...complete, title: 'Dra' })).toEqual([])
  })

  it('needs a biography of at least 10 characters', () => {
    expect(missingProfileFields({ ...complete, biography: '123456789' })).toEqual(['biography'])
    expect(missingProfileFields({ ...complete, biography: '1234567890' })).toEqual([])
  })

  it('needs at least one specialty', () => {
    expect(missingProfileFields({ ...complete, specialties: [] })).toEqual(['specialties'])
  })

  it('needs a CRMV only when the user has one', () => {
    expect(missingProfileFields({ ...complete, crmv: ' ' })).toEqual(['crmv'])
    expect(missingProfileFields({ ...complete, has_crmv: false, crmv: '' })).toEqual([])
  })

  it('reports partial progress', () => {
    expect(completenessPercent({ ...complete, title: '', biography: '' })).toBe(67)
    expect(completenessPercent({ ...complete, has_crmv: false, title: '' })).toBe(80)
  })
})

describe('trimming like the server', () => {
  it('trims U+0085 (Go White_Space) but keeps U+FEFF, as strings.TrimSpace does', () => {
    expect(missingProfileFields({ ...complete, title: 'ab\u0085' })).toEqual(['title'])
    expect(missingProfileFields({ ...complete, title: '\u00a0ab\u2003' })).toEqual(['title'])
    expect(missingProfileFields({ ...complete, title: 'ab\ufeff' })).toEqual([])
  })
})
