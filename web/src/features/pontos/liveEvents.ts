import type { LiveEventHandlers } from '@/lib/liveEvents'
import { queryKeys } from '@/lib/queryKeys'
import { historyKey, type PointsBalance } from './api'

/** Payload of 'points.balance', sent after every change to the user's ledger. */
interface BalanceEvent {
  balance: PointsBalance
}

/**
 * The new balance replaces the cached one (the VetCoins badge and /pontos
 * update without a request) and the history is read again for the new entry.
 */
export const pointsLiveEvents: LiveEventHandlers = {
  'points.balance': (data, queryClient) => {
    queryClient.setQueryData(queryKeys.pointsBalance, (data as BalanceEvent).balance)
    void queryClient.invalidateQueries({ queryKey: historyKey })
  },
}
