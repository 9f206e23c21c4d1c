import { ApiError, GENERIC_ERROR_MESSAGE } from '@/lib/api'
import { createCheckout, createPortal, type CheckoutInput } from './api'

/** The page leaves for Stripe in this tab (a seam for tests: jsdom cannot navigate). */
export const browser = {
  assign: (url: string) => window.location.assign(url),
  open: () => window.open('', '_blank'),
}

/** A refused checkout, in words; `subscribed` when the member already has a subscription (409). */
export interface CheckoutFailure {
  message: string
  subscribed: boolean
}

export function checkoutFailure(err: unknown): CheckoutFailure {
  if (err instanceof ApiError) {
    return { message: err.message || GENERIC_ERROR_MESSAGE, subscribed: err.status === 409 }
  }
  return { message: GENERIC_ERROR_MESSAGE, subscribed: false }
}

/** 'Assinar' on /pricing: asks for a Checkout Session and goes there in the same tab. */
export async function goToCheckout(input: CheckoutInput): Promise<void> {
  const { url } = await createCheckout(input)
  browser.assign(url)
}

/**
 * 'Upgrade Agora': the monthly checkout in a new tab. The tab is opened
 * synchronously inside the click (popup blockers allow only that), blank, and
 * sent to Stripe once the server answers; closed again if it refuses.
 * Without a tab (blocked anyway) the checkout opens in this one.
 */
export async function openCheckoutInNewTab(input: CheckoutInput): Promise<void> {
  const tab = browser.open()
  if (tab) {
    try {
      tab.opener = null
    } catch {
      // Some browsers refuse the write: the tab only ever shows Stripe.
    }
  }
  try {
    const { url } = await createCheckout(input)
    if (tab && !tab.closed) tab.location.href = url
    else browser.assign(url)
  } catch (err) {
    tab?.close()
    throw err
  }
}

/** 'Gerenciar assinatura' / 'Atualizar pagamento': Stripe's customer portal in this tab. */
export async function goToPortal(): Promise<void> {
  const { url } = await createPortal()
  browser.assign(url)
}
