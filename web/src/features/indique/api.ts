import { useQuery } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'
import { deviceId } from '@/lib/referral'

export type ReferralState =
  | 'cadastrado'
  | 'confirmado'
  | 'em_carencia'
  | 'em_analise'
  | 'recompensada'
  | 'estornada'
  | 'expirada'
  | 'nao_aprovada'
  | 'limite'

export interface ReferralItem {
  id: string
  name: string
  state: ReferralState
  state_text: string
  reason_text?: string
  reward_at?: string
  created_at: string
}

export interface ReferralDashboard {
  code: string
  link: string
  totals: { cliques: number; cadastros: number; assinaturas: number; recompensas: number; vetcoins_ganhos: number }
  referrals: ReferralItem[]
  settings: {
    referrer_points: number
    referee_points: number
    referrer_free_months: number
    hold_days: number
    window_days: number
    cap_month: number
    cap_total: number
  }
}

export const referralKey = ['referrals', 'me'] as const

/** GET /api/referrals/me (this device's id goes along for the anti-fraud checks). */
export function useReferralDashboard() {
  return useQuery({
    queryKey: referralKey,
    queryFn: ({ signal }) => apiFetch<ReferralDashboard>('/api/referrals/me', { signal, headers: { 'X-Device-Id': deviceId() } }),
  })
}

/** track-referral-click: the server counts one click per browser session and code. */
export function trackReferralClick(code: string, sessionId: string, device: string) {
  return apiFetch<{ counted: boolean }>('/api/referrals/click', {
    method: 'POST',
    body: { referral_code: code, session_id: sessionId, device_id: device },
  })
}

/** process-referral-signup, for an account just created by Google sign-in. */
export function processReferralSignup(code: string, device: string) {
  return apiFetch<{ recorded: boolean; message: string }>('/api/referrals/process-signup', {
    method: 'POST',
    body: { referral_code: code, device_id: device },
  })
}
