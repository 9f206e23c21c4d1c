import { queryOptions } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'

// Apart from the hook (./api) so the start-up warm-up can prefetch the cards
// without pulling the hook's code into the first bundle.

/** One plugin's card for the home page (GET /api/dashboard/cards). */
export interface DashboardCard {
  /** Id of the plugin that made the card. */
  plugin: string
  title: string
  body: string
  /** A path inside the app; absent when the card links nowhere (the server drops any other link). */
  link?: string
}

export const dashboardCardsKey = ['dashboard', 'cards'] as const

/** The cards the installed tools want on the signed-in user's home page; [] when none do. */
export const dashboardCardsQuery = queryOptions({
  queryKey: dashboardCardsKey,
  queryFn: ({ signal }) => apiFetch<{ cards?: DashboardCard[] | null }>('/api/dashboard/cards', { signal }).then((r) => r.cards ?? []),
})
