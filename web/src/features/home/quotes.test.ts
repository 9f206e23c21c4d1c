import { describe, expect, it } from 'vitest'
import { QUOTES, pickQuote } from './quotes'

describe('motivational quotes', () => {
  it('has about 100 distinct, non-empty quotes', () => {
    expect(QUOTES.length).toBeGreaterThanOrEqual(95)
    expect(QUOTES.length).toBeLessThanOrEqual(110)
    expect(new Set(QUOTES.map((q) => q.text)).size).toBe(QUOTES.length)
    for (const q of QUOTES) expect(q.text.trim().length).toBeGreaterThan(10)
  })

  it('maps the random number onto the whole list', () => {
    expect(pickQuote(() => 0)).toBe(QUOTES[0])
    expect(pickQuote(() => 0.5)).toBe(QUOTES[Math.floor(0.5 * QUOTES.length)])
    expect(pickQuote(() => 0.999999)).toBe(QUOTES[QUOTES.length - 1])
  })

  it('stays inside the list for out-of-range generators', () => {
    expect(pickQuote(() => 1)).toBe(QUOTES[QUOTES.length - 1])
    expect(pickQuote(() => -0.2)).toBe(QUOTES[0])
    expect(pickQuote(() => Number.NaN)).toBe(QUOTES[0])
  })

  it('reaches many different quotes with Math.random', () => {
    const seen = new Set<string>()
    for (let i = 0; i < 2000; i++) seen.add(pickQuote().text)
    expect(seen.size).toBeGreaterThan(QUOTES.length * 0.8)
  })
})
