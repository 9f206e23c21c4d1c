import { describe, expect, it } from 'vitest'
import { diagnosticText, formatBytes, swStateLabel, type Diagnostic } from './diagnostics'
import { API_ERROR_RING_SIZE, clearApiErrors, recentApiErrors, recordApiError } from '@/lib/apiErrors'

describe('formatBytes', () => {
  it('uses 1024 steps and a pt-BR decimal comma', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(1536)).toBe('1,5 KB')
    expect(formatBytes(5 * 1024 * 1024)).toBe('5 MB')
    expect(formatBytes(undefined)).toBe('desconhecido')
    expect(formatBytes(-1)).toBe('desconhecido')
  })
})

describe('API error ring', () => {
  it('keeps the last 20, newest first, without query strings', () => {
    clearApiErrors()
    for (let i = 0; i < API_ERROR_RING_SIZE + 5; i++) {
      recordApiError({ method: 'GET', path: `/api/x/${i}?token=segredo`, status: 500, code: 'internal', message: 'Erro', requestId: `req-${i}` })
    }
    const got = recentApiErrors()
    expect(got).toHaveLength(API_ERROR_RING_SIZE)
    expect(got[0]!.requestId).toBe(`req-${API_ERROR_RING_SIZE + 4}`)
    expect(got.at(-1)!.requestId).toBe('req-5')
    expect(got.every((e) => !e.path.includes('segredo'))).toBe(true)
  })
})

describe('diagnosticText', () => {
  it('lists every part with the request ids', () => {
    const d: Diagnostic = {
      at: '2026-11-29T01:00:00Z',
      url: 'http://localhost/debug',
      userAgent: 'UA',
      build: { revision: 'abc123', built_at: '2026-11-28' },
      serviceWorker: { state: 'activated', scriptURL: '/sw-unified.js', waiting: true },
      caches: [{ name: 'precache', entries: 3, bytes: 2048 }],
      storage: { usage: 1024, quota: 1024 * 1024 },
      notificationPermission: 'default',
      pushSubscribed: false,
      online: true,
      lastProbe: { at: '01:00', ok: true },
      user: { id: 'u1', roles: ['user', 'trial'], trial: 'ativo até 2026-12-01' },
      errors: [{ at: 't', method: 'POST', path: '/api/y', status: 422, code: 'invalid', message: 'Inválido', requestId: 'req-9' }],
    }
    const text = diagnosticText(d)
    expect(text).toContain('Versão: abc123 (build 2026-11-28)')
    expect(text).toContain('(atualização aguardando)')
    expect(text).toContain('precache (3 itens, 2 KB)')
    expect(text).toContain('[request id req-9]')
    expect(text).toContain('funções: user, trial; teste: ativo até 2026-12-01')
    expect(swStateLabel('activated')).toBe('ativo')
  })
})
