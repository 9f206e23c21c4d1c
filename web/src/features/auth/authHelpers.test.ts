import { afterEach, describe, expect, it } from 'vitest'
import { ApiError } from '@/lib/api'
import { googleErrorMessage, googleStartUrl } from './googleErrors'
import { loginErrorMessage, signupErrorMessage } from './loginMessages'
import { captureReferralCode, clearReferralCode, REFERRAL_STORAGE_KEY, storedReferralCode } from './referral'

describe('googleErrorMessage', () => {
  it('maps the known provider codes to their pt-BR texts', () => {
    expect(googleErrorMessage('?google_error=unauthorized_client')).toBe('Configuração OAuth incorreta...')
    expect(googleErrorMessage('?google_error=redirect_uri_mismatch')).toBe('URL de redirecionamento não autorizada...')
    expect(googleErrorMessage('?google_error=access_denied&message=x')).toBe('Acesso negado pelo usuário.')
    expect(googleErrorMessage('?google_error=unexpected')).toBe('Erro inesperado ao fazer login com Google')
  })
  it("shows the server's 'Erro ao fazer login com Google: …' text for other codes", () => {
    const q = new URLSearchParams({ google_error: 'server_error', message: 'Erro ao fazer login com Google: falhou' })
    expect(googleErrorMessage(q)).toBe('Erro ao fazer login com Google: falhou')
  })
  it('never echoes arbitrary text from the link', () => {
    const q = new URLSearchParams({ google_error: 'server_error', message: 'Ligue para 0800' })
    expect(googleErrorMessage(q)).toBe('Erro ao fazer login com Google: server_error')
  })
  it('is null without a google_error', () => {
    expect(googleErrorMessage('?redirect=/cursos')).toBeNull()
  })
  it('builds the start URL with the return path encoded', () => {
    expect(googleStartUrl('/cursos?x=1')).toBe('/api/auth/google/start?redirect=%2Fcursos%3Fx%3D1')
  })
})

describe('login and sign-up error texts', () => {
  it("shows the server's message for refusals and the generic text otherwise", () => {
    const locked = 'Conta bloqueada devido a muitas tentativas de login falhadas. Tente novamente após 10:30.'
    expect(loginErrorMessage(new ApiError(423, 'ELOCKED', locked))).toBe(locked)
    expect(loginErrorMessage(new ApiError(429, 'ERATELIMITED', 'Muitas tentativas de login. Aguarde um momento.'))).toBe(
      'Muitas tentativas de login. Aguarde um momento.',
    )
    expect(loginErrorMessage(new ApiError(500, 'EINTERNAL', 'Erro interno'))).toBe('Erro ao fazer login')
    expect(loginErrorMessage(new ApiError(0, 'ENETWORK', 'sem rede'))).toBe('Erro ao fazer login')
    expect(loginErrorMessage(new TypeError('boom'))).toBe('Erro ao fazer login')
    expect(signupErrorMessage(new ApiError(503, 'EUNAVAILABLE', 'x'))).toBe('Erro ao criar conta')
    expect(signupErrorMessage(new ApiError(429, 'ERATELIMITED', 'Muitas tentativas de cadastro. Aguarde um momento.'))).toBe(
      'Muitas tentativas de cadastro. Aguarde um momento.',
    )
  })
})

describe('referral code capture', () => {
  afterEach(() => localStorage.clear())

  it('stores ?ref or ?referral and keeps it across pages without one; the first code wins for 30 days', () => {
    const t0 = Date.UTC(2026, 0, 1)
    expect(captureReferralCode('?ref=ANA10', t0)).toBe('ANA10')
    expect(JSON.parse(localStorage.getItem(REFERRAL_STORAGE_KEY)!)).toEqual({ code: 'ANA10', at: t0 })
    expect(captureReferralCode('', t0 + 1000)).toBe('ANA10')
    const day = 24 * 60 * 60 * 1000
    expect(captureReferralCode('?referral=BIA20', t0 + 29 * day)).toBe('ANA10')
    expect(storedReferralCode(t0 + 29 * day)).toBe('ANA10')
    // After 30 days the first code has lapsed and a new one is kept.
    expect(captureReferralCode('?referral=BIA20', t0 + 31 * day)).toBe('BIA20')
    expect(storedReferralCode(t0 + 31 * day)).toBe('BIA20')
  })
  it('reads a bare code saved by an older build', () => {
    localStorage.setItem(REFERRAL_STORAGE_KEY, 'OLD123')
    expect(storedReferralCode()).toBe('OLD123')
    expect(captureReferralCode('?ref=NEW456')).toBe('OLD123')
  })
  it('ignores blank and oversized codes, and clears after sign-up', () => {
    expect(captureReferralCode('?ref=%20%20')).toBeNull()
    expect(captureReferralCode(`?ref=${'x'.repeat(65)}`)).toBeNull()
    captureReferralCode('?ref=ANA10')
    clearReferralCode()
    expect(storedReferralCode()).toBeNull()
  })
})
