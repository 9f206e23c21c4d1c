import { describe, expect, it } from 'vitest'
import { formatSaoPaulo, saoPauloToUTC, utcToSaoPaulo } from './time'

describe('São Paulo scheduling times', () => {
  it('converts the wall time editors type to UTC and back', () => {
    expect(saoPauloToUTC('2026-11-24T09:00')).toBe('2026-11-24T12:00:00.000Z')
    expect(saoPauloToUTC('2026-12-31T23:30')).toBe('2027-01-01T02:30:00.000Z')
    expect(utcToSaoPaulo('2026-11-24T12:00:00Z')).toBe('2026-11-24T09:00')
    expect(utcToSaoPaulo('2027-01-01T02:30:00Z')).toBe('2026-12-31T23:30')
  })

  it('follows the old daylight-saving rules for past dates', () => {
    // Until 2019 São Paulo kept summer time (UTC−2) from November to February.
    expect(saoPauloToUTC('2018-12-15T10:00')).toBe('2018-12-15T12:00:00.000Z')
    expect(utcToSaoPaulo('2018-12-15T12:00:00Z')).toBe('2018-12-15T10:00')
  })

  it('refuses malformed input and shows dates the Brazilian way', () => {
    expect(saoPauloToUTC('24/11/2026 09:00')).toBeUndefined()
    expect(utcToSaoPaulo(undefined)).toBe('')
    expect(formatSaoPaulo('2026-11-24T12:00:00Z')).toBe('24/11/2026, 09:00')
  })
})
