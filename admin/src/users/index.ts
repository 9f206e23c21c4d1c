import { lazy } from 'react'

// Each view is its own chunk: the sign-in page and dashboard load without them.
export const UserList = lazy(() => import('./UserList'))
export const UserShow = lazy(() => import('./UserShow'))
