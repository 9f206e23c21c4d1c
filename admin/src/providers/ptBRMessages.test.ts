import englishMessages from 'ra-language-english'
import { describe, expect, it } from 'vitest'
import ptBRMessages from './ptBRMessages'

function keys(messages: object, prefix = ''): string[] {
  return Object.entries(messages).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null ? keys(value, `${prefix}${key}.`) : [`${prefix}${key}`],
  )
}

function lookup(messages: any, path: string): unknown {
  return path.split('.').reduce((node, key) => node?.[key], messages)
}

describe('pt-BR messages', () => {
  it('translate every key of ra-language-english', () => {
    const missing = keys(englishMessages).filter((key) => typeof lookup(ptBRMessages, key) !== 'string')
    expect(missing).toEqual([])
  })

  it('keep the placeholders of each English message', () => {
    const placeholders = (s: string) => (s.match(/%\{\w+\}/g) ?? []).sort()
    const differing = keys(englishMessages).filter((key) => {
      const en = lookup(englishMessages, key) as string
      const pt = lookup(ptBRMessages, key) as string
      return placeholders(en).join() !== placeholders(pt).join() || en.includes('||||') !== pt.includes('||||')
    })
    expect(differing).toEqual([])
  })
})
