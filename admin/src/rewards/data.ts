import { httpClient } from '../providers/httpClient'

const API = '/api/admin'

export interface VoucherUpload {
  added: number
}

/** Loads a CSV of partner codes; the server refuses the whole file with line numbers. */
export async function uploadVouchers(rewardId: string, csv: string): Promise<VoucherUpload> {
  const { json } = await httpClient(`${API}/rewards/${encodeURIComponent(rewardId)}/vouchers`, { method: 'POST', body: { csv } })
  return json as VoucherUpload
}

/** A staff refund: the VetCoins come back and the stock is restored; the reason is audited. */
export async function refundRedemption(id: string, reason: string): Promise<void> {
  await httpClient(`${API}/reward-redemptions/${encodeURIComponent(id)}/refund`, { method: 'POST', body: { reason: reason.trim() } })
}

export const KIND_CHOICES = [
  { id: 'voucher', name: 'Voucher de parceiro (códigos)' },
  { id: 'coupon', name: 'Cupom de desconto na assinatura (Stripe)' },
  { id: 'course', name: 'Curso liberado' },
  { id: 'certificate_frame', name: 'Moldura de certificado' },
]

export const KIND_TEXT: Record<string, string> = {
  voucher: 'Voucher',
  coupon: 'Cupom na assinatura',
  course: 'Curso',
  certificate_frame: 'Moldura',
}

export const FRAME_CHOICES = [
  { id: 'ouro', name: 'Ouro' },
  { id: 'prata', name: 'Prata' },
  { id: 'esmeralda', name: 'Esmeralda' },
]

export const STATUS_CHOICES = [
  { id: 'delivered', name: 'Entregue' },
  { id: 'pending', name: 'Em entrega' },
  { id: 'refunded', name: 'Estornado' },
]
