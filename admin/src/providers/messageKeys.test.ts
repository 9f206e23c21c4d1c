import { describe, expect, it } from 'vitest'
import ptBRMessages from './ptBRMessages'

// Every source file of the backoffice, as text.
const sources = import.meta.glob<string>(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}'], { query: '?raw', import: 'default', eager: true })

function lookup(messages: any, path: string): unknown {
  return path.split('.').reduce((node, key) => node?.[key], messages)
}

describe('message keys the UI uses', () => {
  it('all have a pt-BR text', () => {
    const used = new Set<string>()
    for (const text of Object.values(sources)) {
      // Literal keys: 'vetclube.content.title', "ra.action.cancel". Keys
      // built at run time (`vetclube.content.confirm_${x}`) are listed below.
      for (const m of text.matchAll(/['"`]((?:vetclube|ra)\.[a-z_]+(?:\.[a-z_]+)+)['"`]/g)) used.add(m[1])
    }
    for (const action of ['discard', 'archive', 'unpublish']) used.add(`vetclube.content.confirm_${action}`)
    for (const change of ['grant', 'revoke']) {
      for (const role of ['editor', 'revisor', 'moderador', 'super_admin']) used.add(`vetclube.users.consequence_${change}_${role}`)
    }
    for (const role of ['user', 'trial', 'premium', 'editor', 'revisor', 'moderador', 'super_admin']) used.add(`vetclube.roles.${role}`)
    expect(used.size).toBeGreaterThan(50)
    const missing = [...used].filter((key) => typeof lookup(ptBRMessages, key) !== 'string')
    expect(missing).toEqual([])
  })
})
