// The backoffice's view of "Indique e ganhe" (GET /api/admin/referrals…).

export type Verdict = 'approved' | 'flagged' | 'rejected'

export interface ReferralRow {
  id: string
  referrer_id: string
  referrer_email: string
  referee_id: string
  referee_email: string
  code: string
  state: string
  state_text: string
  verdict: Verdict
  reasons: string[]
  reasons_text: string
  signup_ip: string
  device_id: string
  created_at: string
  paid_at: string | null
  hold_until: string | null
  rewarded_at: string | null
  review_note: string
}

export interface TimelineEvent {
  at: string
  type: string
  actor_id: string | null
  detail: Record<string, unknown>
}

export interface ReferralDetail extends ReferralRow {
  evidence: Record<string, unknown>
  timeline: TimelineEvent[]
  same_device_accounts: string[]
  same_ip_referrals: string[]
}

export interface ProgramStats {
  weeks: { week: string; clicks: number; signups: number; paid: number; rewarded: number }[]
  top_referrers: { user_id: string; email: string; signups: number; rewarded: number }[]
  flagged: number
}

export interface ProgramSettings {
  referrer_points: number
  referee_points: number
  referrer_free_months: number
  hold_days: number
  window_days: number
  reversal_days: number
  cap_month: number
  cap_total: number
}

export const VERDICT_CHOICES = [
  { id: 'flagged', name: 'Em análise' },
  { id: 'approved', name: 'Aprovada' },
  { id: 'rejected', name: 'Reprovada' },
]

export const VERDICT_TEXT: Record<Verdict, string> = { flagged: 'Em análise', approved: 'Aprovada', rejected: 'Reprovada' }

/** The timeline's event types in words. */
export const EVENT_TEXT: Record<string, string> = {
  signup: 'Cadastro com o código',
  email_confirmed: 'E-mail confirmado',
  invoice_paid: 'Primeira fatura paga',
  checked: 'Verificação antifraude antes da recompensa',
  capped: 'Limite de recompensas atingido',
  rewarded: 'Recompensas creditadas',
  payment_reversed: 'Pagamento estornado antes da recompensa',
  reversed: 'Recompensas estornadas',
  expired: 'Prazo de qualificação expirado',
  review: 'Análise da equipe',
}

export const SETTINGS_FIELDS: { key: keyof ProgramSettings; label: string; help: string }[] = [
  { key: 'referrer_points', label: 'VetCoins para quem indica', help: '0 a 100.000' },
  { key: 'referee_points', label: 'VetCoins para o indicado', help: '0 a 100.000' },
  { key: 'referrer_free_months', label: 'Meses grátis para quem indica', help: '0 a 12' },
  { key: 'hold_days', label: 'Carência (dias)', help: '0 a 90' },
  { key: 'window_days', label: 'Prazo para assinar (dias)', help: '1 a 365' },
  { key: 'reversal_days', label: 'Prazo de estorno (dias)', help: '0 a 365' },
  { key: 'cap_month', label: 'Limite mensal de recompensas', help: '0 a 1.000' },
  { key: 'cap_total', label: 'Limite total de recompensas', help: '0 a 100.000' },
]
