import { useQuery } from '@tanstack/react-query'
import { dashboardCardsQuery } from './queries'

/** The tools' cards for the home page (a plugin hook); see ./queries for the shape. */
export function useDashboardCards() {
  return useQuery(dashboardCardsQuery)
}
