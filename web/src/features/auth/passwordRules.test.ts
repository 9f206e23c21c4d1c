import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { passwordError, passwordReasonMessages, passwordReasons } from './passwordRules'

// The Go validator's test reads the same file: one list of cases proves both equal.
const casesPath = resolve(__dirname, '../../../../core/auth/password/testdata/cases.json')
type SharedCase = { email: string; password: string; reasons: string[]; message: string }
const shared = (JSON.parse(readFileSync(casesPath, 'utf8')) as { cases: SharedCase[] }).cases

describe('passwordRules against core/auth/password/testdata/cases.json', () => {
  it('has cases to check', () => {
    expect(shared.length).toBeGreaterThan(5)
  })

  it.each(shared.map((c) => [JSON.stringify(c.password), c] as const))('password %s', (_, c) => {
    expect(passwordReasonMessages(c.password, c.email)).toEqual(c.reasons)
    expect(passwordError(c.password, c.email)).toBe(c.message === '' ? null : c.message)
  })
})

describe('passwordReasons beyond the shared cases', () => {
  it('counts characters, not UTF-16 units', () => {
    // Seven characters, one outside the BMP (two UTF-16 units): still too short.
    expect(passwordReasons('Ab1!xy😀')).toEqual(['tooShort'])
  })

  it('ignores the email rule when no email is known yet', () => {
    expect(passwordReasons('Maria@2026', '')).toEqual([])
    expect(passwordReasons('Maria@2026', 'maria@example.com')).toEqual(['containsEmail'])
  })
})
