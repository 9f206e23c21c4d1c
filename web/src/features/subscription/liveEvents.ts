import type { LiveEventHandlers } from '@/lib/liveEvents'
import { queryKeys } from '@/lib/queryKeys'

/** A plan or trial change (payment, expiry, a grant in the backoffice) re-reads the subscription. */
export const subscriptionLiveEvents: LiveEventHandlers = {
  'subscription.changed': (_data, queryClient) => void queryClient.invalidateQueries({ queryKey: queryKeys.subscription }),
}
