import { lazy } from 'react'

// Their own chunks: only super admins open them.
export const SubscriptionList = lazy(() => import('./SubscriptionList'))
export const EventList = lazy(() => import('./EventList'))
