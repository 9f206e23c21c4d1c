import { describe, expect, it } from 'vitest'
import { formatCountdown, weekSlots } from './countdown'

describe('formatCountdown', () => {
  it('shows hours and minutes to midnight, rounding minutes up', () => {
    const now = new Date('2026-03-10T22:15:30-03:00')
    expect(formatCountdown(new Date('2026-03-11T00:00:00-03:00'), now)).toBe('1h 45m')
  })
  it('never goes negative', () => {
    expect(formatCountdown(new Date(0), new Date(1000))).toBe('0h 0m')
  })
})

describe('weekSlots', () => {
  it('marks done slots up to the sequence and the next one as clickable', () => {
    const slots = weekSlots(3, true)
    expect(slots.map((s) => s.done)).toEqual([true, true, true, false, false, false, false])
    expect(slots.findIndex((s) => s.next)).toBe(3)
  })
  it('has no clickable slot once today is done', () => {
    expect(weekSlots(3, false).some((s) => s.next)).toBe(false)
  })
})
