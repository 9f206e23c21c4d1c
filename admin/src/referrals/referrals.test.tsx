import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { AdminContext, RecordContextProvider } from 'react-admin'
import { QueryClient } from '@tanstack/react-query'
import { dataProvider } from '../providers/dataProvider'
import { i18nProvider } from '../providers/i18nProvider'
import { mayAccessResource } from '../providers/authProvider'
import { clearCookies, scriptFetch, setCookie } from '../providers/testServer'
import { ReferralDetails, ReviewButtons } from './ReferralList'
import { SettingsCard } from './ReferralProgramPage'
import type { ReferralDetail, ReferralRow } from './types'

const row = (over: Partial<ReferralRow> = {}): ReferralRow => ({
  id: '11111111-1111-1111-1111-111111111111',
  referrer_id: 'a',
  referrer_email: 'ana@example.com',
  referee_id: 'b',
  referee_email: 'bia@example.com',
  code: 'K7M2QX9P',
  state: 'cadastrado',
  state_text: 'Cadastro feito — aguardando confirmação do e-mail',
  verdict: 'flagged',
  reasons: ['same_device'],
  reasons_text: 'o cadastro foi feito no mesmo dispositivo de quem indicou',
  signup_ip: '10.0.0.9',
  device_id: 'device-123456',
  created_at: '2026-11-20T12:00:00Z',
  paid_at: null,
  hold_until: null,
  rewarded_at: null,
  review_note: '',
  ...over,
})

const detail = (): ReferralDetail => ({
  ...row(),
  evidence: { ip: '10.0.0.9', signups_from_ip: 0 },
  timeline: [
    { at: '2026-11-20T12:00:00Z', type: 'signup', actor_id: null, detail: {} },
    { at: '2026-11-21T12:00:00Z', type: 'review', actor_id: 'staff', detail: { decision: 'rejected', note: 'Mesma pessoa' } },
  ],
  same_device_accounts: ['ana@example.com'],
  same_ip_referrals: [],
})

beforeEach(() => {
  clearCookies()
  setCookie('vc_csrf=csrf1; path=/')
})
afterEach(() => vi.unstubAllGlobals())

;(globalThis as any).IS_REACT_ACT_ENVIRONMENT = true
let root: Root | null = null
afterEach(() => {
  act(() => root?.unmount())
  root = null
  document.body.innerHTML = ''
})

async function renderWithAdmin(node: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const container = document.createElement('div')
  document.body.appendChild(container)
  root = createRoot(container)
  await act(async () => {
    root!.render(
      <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} queryClient={queryClient}>
        {node}
      </AdminContext>,
    )
  })
  return container
}

const texts = () => Array.from(document.body.querySelectorAll('*')).filter((e) => e.children.length === 0).map((e) => e.textContent ?? '')
const button = (label: string, scope: ParentNode = document.body) => Array.from(scope.querySelectorAll('button')).find((b) => b.textContent === label)

async function until(check: () => boolean) {
  for (let i = 0; i < 100 && !check(); i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 10))
    })
  }
  expect(check()).toBe(true)
}

async function type(input: HTMLTextAreaElement | HTMLInputElement, value: string) {
  await act(async () => {
    const proto = input instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype
    Object.getOwnPropertyDescriptor(proto, 'value')!.set!.call(input, value)
    input.dispatchEvent(new Event('input', { bubbles: true }))
  })
}

describe('Indicações in the backoffice', () => {
  it('is for super admins only', () => {
    expect(mayAccessResource(['user', 'super_admin'], 'referrals')).toBe(true)
    expect(mayAccessResource(['user', 'moderador'], 'referrals')).toBe(false)
    expect(mayAccessResource(['user', 'editor'], 'referrals')).toBe(false)
  })

  it('shows the evidence and the audited timeline', async () => {
    scriptFetch((call) => (call.path === `/api/admin/referrals/${row().id}` ? { status: 200, json: detail() } : undefined))
    await renderWithAdmin(
      <RecordContextProvider value={row()}>
        <ReferralDetails />
      </RecordContextProvider>,
    )
    await until(() => texts().some((t) => t.includes('Linha do tempo')))
    const all = texts().join('\n')
    expect(all).toContain('o cadastro foi feito no mesmo dispositivo de quem indicou')
    expect(all).toContain('Contas no mesmo dispositivo: ana@example.com')
    expect(all).toContain('Cadastro com o código')
    expect(all).toContain('Análise da equipe · reprovada · Mesma pessoa')
  })

  it('rejects a flagged referral with the note', async () => {
    const calls = scriptFetch((call) =>
      call.method === 'POST' && call.path === `/api/admin/referrals/${row().id}/review` ? { status: 200, json: detail() } : undefined,
    )
    await renderWithAdmin(
      <RecordContextProvider value={row()}>
        <ReviewButtons />
      </RecordContextProvider>,
    )
    await act(async () => button('Reprovar')!.click())
    await until(() => texts().includes('Reprovar esta indicação?'))
    const dialog = document.body.querySelector('[role="dialog"]')!
    await type(dialog.querySelector('textarea:not([aria-hidden])') as HTMLTextAreaElement, ' Mesma pessoa ')
    await act(async () => button('Reprovar', dialog)!.click())
    await until(() => calls.length === 1)
    expect(calls[0].headers.get('X-CSRF-Token')).toBe('csrf1')
    expect(JSON.parse(calls[0].body)).toEqual({ decision: 'reject', note: 'Mesma pessoa' })
  })

  it('offers no decision on a referral that is not flagged', async () => {
    await renderWithAdmin(
      <RecordContextProvider value={row({ verdict: 'approved' })}>
        <ReviewButtons />
      </RecordContextProvider>,
    )
    expect(document.body.querySelectorAll('button')).toHaveLength(0)
  })

  it('edits the settings and shows the server refusal per field', async () => {
    const settings = { referrer_points: 500, referee_points: 200, referrer_free_months: 1, hold_days: 14, window_days: 60, reversal_days: 60, cap_month: 10, cap_total: 50 }
    const calls = scriptFetch((call) => {
      if (call.method === 'GET' && call.path === '/api/admin/referral-settings') return { status: 200, json: settings }
      if (call.method === 'PUT' && call.path === '/api/admin/referral-settings') {
        const body = JSON.parse(call.body)
        if (body.hold_days > 90) {
          return { status: 422, json: { error: { code: 'invalid', message: 'Configurações inválidas.', fields: { hold_days: 'Use um valor entre 0 e 90.' } } } }
        }
        return { status: 200, json: body }
      }
      return undefined
    })
    await renderWithAdmin(<SettingsCard />)
    await until(() => document.body.querySelector('input[aria-label="Carência (dias)"]') !== null)
    const hold = document.body.querySelector('input[aria-label="Carência (dias)"]') as HTMLInputElement
    expect(hold.value).toBe('14')
    await type(hold, '120')
    await act(async () => button('Salvar')!.click())
    await until(() => texts().includes('Use um valor entre 0 e 90.'))
    await type(hold, '21')
    await act(async () => button('Salvar')!.click())
    await until(() => calls.filter((c) => c.method === 'PUT').length === 2)
    expect(JSON.parse(calls.filter((c) => c.method === 'PUT')[1].body)).toMatchObject({ hold_days: 21, referrer_points: 500 })
  })
})
