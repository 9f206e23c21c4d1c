import { QueryClient } from '@tanstack/react-query'
import { isRetryable } from './api'

const MINUTE = 60_000

/** Exponential backoff (1 s, 2 s, 4 s…) capped at 30 s. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000)
}

/**
 * Cache settings: fresh 5 min, kept 10 min, 1 query retry, 2
 * mutation retries, no refetch on window focus. 4xx answers are never retried:
 * repeating a refused login or a 404 cannot succeed and would trip rate limits.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5 * MINUTE,
        gcTime: 10 * MINUTE,
        retry: (failureCount, error) => failureCount < 1 && isRetryable(error),
        retryDelay,
        refetchOnWindowFocus: false,
      },
      mutations: {
        retry: (failureCount, error) => failureCount < 2 && isRetryable(error),
        retryDelay,
      },
    },
  })
}

export const queryClient = createQueryClient()
