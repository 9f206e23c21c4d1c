import { describe, expect, it } from 'vitest'
import { ApiError } from './api'
import { createQueryClient, retryDelay } from './queryClient'

describe('query client settings', () => {
  const defaults = createQueryClient().getDefaultOptions()

  it('keeps data fresh 5 min, cached 10 min, no refetch on focus', () => {
    expect(defaults.queries?.staleTime).toBe(5 * 60_000)
    expect(defaults.queries?.gcTime).toBe(10 * 60_000)
    expect(defaults.queries?.refetchOnWindowFocus).toBe(false)
  })

  it('retries a query once and a mutation twice, only for retryable failures', () => {
    const queryRetry = defaults.queries?.retry as (n: number, e: unknown) => boolean
    const mutationRetry = defaults.mutations?.retry as (n: number, e: unknown) => boolean
    const serverError = new ApiError(503, 'EUNAVAILABLE', 'x')
    expect(queryRetry(0, serverError)).toBe(true)
    expect(queryRetry(1, serverError)).toBe(false)
    expect(mutationRetry(1, serverError)).toBe(true)
    expect(mutationRetry(2, serverError)).toBe(false)
    expect(queryRetry(0, new ApiError(404, 'ENOTFOUND', 'x'))).toBe(false)
    expect(mutationRetry(0, new ApiError(429, 'ERATELIMITED', 'x'))).toBe(false)
  })

  it('backs off exponentially up to 30 s', () => {
    expect(retryDelay(0)).toBe(1000)
    expect(retryDelay(1)).toBe(2000)
    expect(retryDelay(10)).toBe(30_000)
  })
})
