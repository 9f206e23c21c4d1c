import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it, vi } from 'vitest'
import { queryKeys } from '@/lib/queryKeys'
import { historyKey } from './api'
import { pointsLiveEvents } from './liveEvents'

describe('points live events', () => {
  it('a new balance replaces the cached one and the history is read again', () => {
    const client = new QueryClient()
    const invalidate = vi.spyOn(client, 'invalidateQueries')
    const balance = { challenge_points: 0, course_points: 0, post_points: 0, checkin_points: 15, other_points: 0, points_spent: 0, total_points: 15 }
    pointsLiveEvents['points.balance']!({ balance, entry: { id: 3, amount: 5, kind: 'checkin' } }, client)
    expect(client.getQueryData(queryKeys.pointsBalance)).toEqual(balance)
    expect(invalidate).toHaveBeenCalledWith({ queryKey: historyKey })
  })
})
