import { describe, expect, it } from 'vitest'
import { fullName, isPremium } from './account'

describe('premium state (spec §4)', () => {
  it('uses the server verdict when given', () => {
    expect(isPremium({ is_premium: true })).toBe(true)
    expect(isPremium({ is_premium: false, subscription_status: 'active', subscription_tier: 'vip' })).toBe(false)
  })
  it('otherwise needs status active and a premium tier', () => {
    for (const tier of ['premium', 'premium_monthly', 'premium_yearly', 'vip']) {
      expect(isPremium({ subscription_status: 'active', subscription_tier: tier })).toBe(true)
    }
    expect(isPremium({ subscription_status: 'trial', subscription_tier: 'premium' })).toBe(false)
    expect(isPremium({ subscription_status: 'active', subscription_tier: 'basic' })).toBe(false)
    expect(isPremium(null)).toBe(false)
  })
})

describe('fullName', () => {
  it('joins the trimmed names and skips blanks', () => {
    expect(fullName({ first_name: ' Ana ', last_name: 'Souza' })).toBe('Ana Souza')
    expect(fullName({ first_name: 'Ana', last_name: '' })).toBe('Ana')
    expect(fullName({ first_name: '', last_name: ' ' })).toBe('')
    expect(fullName(null)).toBe('')
  })
})
