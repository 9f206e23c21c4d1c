import { describe, expect, it } from 'vitest'
import { displayName, fullName } from './names'

describe('fullName', () => {
  it('joins the trimmed names and skips blanks', () => {
    expect(fullName({ first_name: ' Ana ', last_name: 'Souza' })).toBe('Ana Souza')
    expect(fullName({ first_name: 'Ana', last_name: '' })).toBe('Ana')
    expect(fullName({ first_name: '', last_name: ' ' })).toBe('')
    expect(fullName({ first_name: null, last_name: 'Souza' })).toBe('Souza')
    expect(fullName(null)).toBe('')
  })
})

describe('displayName', () => {
  it('falls back to Usuário when no name is set', () => {
    expect(displayName({ first_name: 'Ana', last_name: 'Souza' })).toBe('Ana Souza')
    expect(displayName({ first_name: ' ', last_name: '' })).toBe('Usuário')
    expect(displayName(undefined)).toBe('Usuário')
  })
})
