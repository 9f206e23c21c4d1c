// The subscription feature's public surface for other features.
export { goToCheckout, openCheckoutInNewTab, checkoutFailure } from './checkout'
export { PREMIUM_BENEFITS } from './benefits'
export { useSubscription } from './api'
