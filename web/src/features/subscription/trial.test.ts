import { describe, expect, it } from 'vitest'
import { trialEndDate, trialLabel } from './trial'

describe('trial indicator', () => {
  it('counts the days left with the right number', () => {
    expect(trialLabel(7)).toBe('Premium grátis: 7 dias restantes')
    expect(trialLabel(1)).toBe('Premium grátis: 1 dia restante')
  })

  it('names the end date in pt-BR', () => {
    expect(trialEndDate('2026-12-02T15:00:00Z')).toBe('2 de dezembro')
  })
})
