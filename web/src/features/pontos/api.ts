import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'
import { queryKeys } from '@/lib/queryKeys'

/** GET /api/points/balance: the total and where it came from (spent points are counted positive). */
export interface PointsBalance {
  challenge_points: number
  course_points: number
  post_points: number
  checkin_points: number
  other_points: number
  points_spent: number
  total_points: number
}

export type PointsKind = 'checkin' | 'checkin_bonus' | 'course' | 'challenge' | 'post' | 'referral' | 'referral_reversal' | 'plugin' | 'redemption' | 'redemption_refund'

export interface LedgerEntry {
  id: number
  amount: number
  kind: PointsKind
  metadata: Record<string, unknown>
  created_at: string
}

interface HistoryPage {
  entries: LedgerEntry[]
  next_cursor?: number
}

export const historyKey = ['points', 'history'] as const

export const KIND_LABELS: Record<PointsKind, string> = {
  checkin: 'Check-in diário',
  checkin_bonus: 'Bônus semanal de check-in',
  course: 'Cursos',
  challenge: 'Desafios',
  post: 'Publicações',
  referral: 'Indicação',
  referral_reversal: 'Estorno de indicação',
  plugin: 'Ferramentas',
  redemption: 'Resgate de recompensa',
  redemption_refund: 'Estorno de resgate',
}

/**
 * The only reader of queryKeys.pointsBalance: the top bar's VetCoins badge and
 * /pontos. The live stream writes new balances straight into this entry.
 */
export function usePointsBalance() {
  return useQuery({
    queryKey: queryKeys.pointsBalance,
    queryFn: ({ signal }) => apiFetch<PointsBalance>('/api/points/balance', { signal }),
  })
}

/** The history's filters (GET /api/points/history's kind and period). */
export interface HistoryFilters {
  kind?: 'desafios' | 'cursos' | 'posts' | 'checkin' | 'outros' | 'gastos'
  period?: '7d' | '30d' | '90d' | '365d'
}

export function useHistory(filters: HistoryFilters = {}) {
  const params = new URLSearchParams({ limit: '20' })
  if (filters.kind) params.set('kind', filters.kind)
  if (filters.period) params.set('period', filters.period)
  return useInfiniteQuery({
    queryKey: [...historyKey, filters.kind ?? '', filters.period ?? ''],
    initialPageParam: 0,
    queryFn: ({ pageParam, signal }) => apiFetch<HistoryPage>(`/api/points/history?${params}${pageParam ? `&cursor=${pageParam}` : ''}`, { signal }),
    getNextPageParam: (last) => last.next_cursor || undefined,
  })
}
