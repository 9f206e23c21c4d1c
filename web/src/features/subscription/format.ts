import type { BillingCycle, Payment, PaymentMethod, Subscription } from './api'

// The formatters are built on first use: this module loads with every
// signed-in page (the layout's trial and billing banners), and building a
// formatter with a time zone costs tens of milliseconds of a phone's main
// thread at start, for pages that usually format nothing.
let money: Intl.NumberFormat | undefined
let longDate: Intl.DateTimeFormat | undefined
let dateTime: Intl.DateTimeFormat | undefined

/** 2990 → "R$ 29,90" (the non-breaking space Intl puts after R$ kept). */
export function formatMoney(cents: number): string {
  money ??= new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' })
  return money.format(cents / 100)
}

/** "2 de dezembro de 2026". */
export function formatDate(iso: string): string {
  longDate ??= new Intl.DateTimeFormat('pt-BR', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'America/Sao_Paulo' })
  return longDate.format(new Date(iso))
}

/** "02/12/2026, 14:30". */
export function formatDateTime(iso: string): string {
  dateTime ??= new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Sao_Paulo' })
  return dateTime.format(new Date(iso))
}

export const PLAN_NAMES: Record<BillingCycle, string> = { monthly: 'Premium Mensal', yearly: 'Premium Anual' }

/** The plan's name from the view (plan, else the tier). */
export function planName(plan: BillingCycle | null | undefined, tier?: string | null): string {
  if (plan) return PLAN_NAMES[plan]
  if (tier === 'premium_monthly') return PLAN_NAMES.monthly
  if (tier === 'premium_yearly') return PLAN_NAMES.yearly
  if (tier === 'vip') return 'VIP'
  return 'Premium'
}

export type StatusTone = 'ok' | 'pending' | 'warning' | 'ended' | 'none'

/**
 * The subscription's state in words: "ativa", "em teste até …",
 * "pagamento pendente — acesso até …", "cancelada — acesso até …".
 */
export function statusInWords(v: Subscription): { text: string; tone: StatusTone } {
  const status = v.billing_status ?? ''
  const until = (iso: string | null | undefined) => (iso ? ` — acesso até ${formatDate(iso)}` : '')
  if (v.payment_failed || status === 'past_due' || status === 'unpaid') {
    return { text: `pagamento pendente${until(v.grace_until ?? v.premium_until ?? v.current_period_end)}`, tone: 'warning' }
  }
  if (status === 'canceled' || status === 'incomplete_expired') {
    return v.is_premium ? { text: `cancelada${until(v.premium_until ?? v.current_period_end)}`, tone: 'ended' } : { text: 'cancelada', tone: 'ended' }
  }
  if (v.cancel_at_period_end) return { text: `cancelada${until(v.premium_until ?? v.current_period_end)}`, tone: 'ended' }
  if (status === 'trialing') return { text: v.current_period_end ? `em teste até ${formatDate(v.current_period_end)}` : 'em teste', tone: 'ok' }
  if (status === 'active' || (v.is_premium && !v.trial_active)) return { text: 'ativa', tone: 'ok' }
  if (status === 'incomplete') return { text: 'aguardando o primeiro pagamento', tone: 'warning' }
  if (status === 'paused') return { text: 'pausada', tone: 'warning' }
  if (v.trial_active && v.trial_ends_at) return { text: `em teste até ${formatDate(v.trial_ends_at)}`, tone: 'ok' }
  if (v.trial_expired) return { text: 'teste encerrado', tone: 'none' }
  return { text: 'sem assinatura', tone: 'none' }
}

/** Whether the member has (or had until recently) a Stripe subscription the portal manages. */
export function hasBillingSubscription(v: Subscription | undefined): boolean {
  const s = v?.billing_status
  return !!s && s !== 'canceled' && s !== 'incomplete_expired'
}

const BRANDS: Record<string, string> = { visa: 'Visa', mastercard: 'Mastercard', amex: 'American Express', elo: 'Elo', hipercard: 'Hipercard', diners: 'Diners' }

export function paymentMethodInWords(pm: PaymentMethod | null): string {
  if (!pm) return 'Veja no gerenciamento da assinatura'
  if (pm.type === 'boleto') return 'Boleto bancário'
  if (pm.type === 'pix') return 'Pix'
  const brand = pm.brand ?? ''
  return `${BRANDS[brand.toLowerCase()] ?? (brand || 'Cartão')} terminado em ${pm.last4 ?? '••••'}`
}

const INVOICE_STATUS: Record<string, string> = {
  paid: 'Paga',
  open: 'Em aberto',
  void: 'Cancelada',
  uncollectible: 'Não cobrável',
  draft: 'Rascunho',
}

export function invoiceStatusInWords(status: string): string {
  return INVOICE_STATUS[status] ?? status
}

const KIND: Record<Payment['kind'], string> = { invoice: 'Fatura', attempt: 'Tentativa de cobrança', refund: 'Reembolso', dispute: 'Contestação' }

export function paymentKindInWords(kind: Payment['kind']): string {
  return KIND[kind] ?? kind
}

/** A payment's state in words and what the member should do next. */
export function paymentInWords(p: Payment): { title: string; next: string; tone: StatusTone } {
  const s = p.status
  if (p.kind === 'refund') {
    return { title: 'Reembolso registrado', next: 'O valor volta para a sua forma de pagamento em até 10 dias úteis, conforme o seu banco.', tone: 'ok' }
  }
  if (p.kind === 'dispute') {
    return { title: 'Pagamento contestado', next: 'Recebemos a contestação junto ao seu banco. Se foi um engano, fale com o seu banco para retirá-la.', tone: 'warning' }
  }
  if (s === 'paid' || s === 'succeeded') return { title: 'Pagamento confirmado', next: 'Está tudo certo: nada a fazer. O seu acesso Premium segue ativo.', tone: 'ok' }
  if (s === 'processing' || s === 'pending') {
    return { title: 'Pagamento em processamento', next: 'Boletos levam até 3 dias úteis para compensar. Avisaremos você assim que for confirmado.', tone: 'pending' }
  }
  if (s === 'open' || s === 'requires_action' || s === 'action_required') {
    return { title: 'Pagamento aguardando você', next: 'Abra a fatura para pagar ou confirmar o pagamento.', tone: 'pending' }
  }
  if (s === 'failed' || s === 'payment_failed' || s === 'uncollectible') {
    return { title: 'Pagamento recusado', next: 'Atualize a sua forma de pagamento: tentaremos cobrar de novo.', tone: 'warning' }
  }
  if (s === 'void') return { title: 'Fatura cancelada', next: 'Nenhuma cobrança foi feita: nada a fazer.', tone: 'none' }
  return { title: 'Situação do pagamento', next: 'Se algo parecer errado, abra o gerenciamento da assinatura.', tone: 'none' }
}

const EVENT_STATUS: Record<string, string> = { received: 'recebido', applied: 'aplicado', ignored: 'ignorado', failed: 'falhou' }

/** A webhook event's state: recebido, aplicado, ignorado, falhou. */
export function eventStatusInWords(status: string): string {
  return EVENT_STATUS[status] ?? status
}
