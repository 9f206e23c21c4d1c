import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'
import { queryKeys } from '@/lib/queryKeys'
import { historyKey } from './api'

export type RewardKind = 'coupon' | 'course' | 'certificate_frame' | 'voucher'
/** Why a reward cannot be redeemed now (GET /api/rewards). */
export type Blocked = 'premium' | 'esgotado' | 'limite' | 'saldo'

export interface ShopReward {
  id: string
  title: string
  description: string
  image_url: string
  kind: RewardKind
  cost: number
  stock: number | null
  per_member_limit: number | null
  premium_only: boolean
  instructions: string
  redeemed: number
  available: boolean
  blocked?: Blocked
}

export interface Redemption {
  id: string
  reward_id: string
  kind: RewardKind
  title: string
  cost: number
  status: 'pending' | 'delivered' | 'refunded'
  code: string
  instructions: string
  refund_reason: string
  created_at: string
}

export const KIND_NAMES: Record<RewardKind, string> = {
  coupon: 'Desconto na assinatura',
  course: 'Curso liberado',
  certificate_frame: 'Moldura de certificado',
  voucher: 'Voucher de parceiro',
}

export const BLOCKED_TEXT: Record<Blocked, string> = {
  premium: 'Exclusivo Premium',
  esgotado: 'Esgotado',
  limite: 'Limite por membro atingido',
  saldo: 'Saldo insuficiente',
}

export const rewardsKey = ['rewards', 'shop'] as const
export const redemptionsKey = ['rewards', 'redemptions'] as const

export function useShop() {
  return useQuery({ queryKey: rewardsKey, queryFn: ({ signal }) => apiFetch<ShopReward[]>('/api/rewards', { signal }) })
}

export function useMyRedemptions() {
  return useQuery({
    queryKey: redemptionsKey,
    queryFn: ({ signal }) => apiFetch<{ redemptions: Redemption[]; frames: string[] }>('/api/rewards/redemptions', { signal }),
  })
}

/** POST /api/rewards/{id}/redeem with the key of this confirmation: a repeated click is the same redemption. */
export function useRedeem() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, key }: { id: string; key: string }) =>
      apiFetch<Redemption>(`/api/rewards/${encodeURIComponent(id)}/redeem`, { body: { idempotency_key: key } }),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: rewardsKey })
      void qc.invalidateQueries({ queryKey: redemptionsKey })
      void qc.invalidateQueries({ queryKey: queryKeys.pointsBalance })
      void qc.invalidateQueries({ queryKey: historyKey })
    },
  })
}
