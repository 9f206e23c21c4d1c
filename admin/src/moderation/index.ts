import { lazy } from 'react'

// Its own chunk: only moderators and super admins open it.
export const ModerationList = lazy(() => import('./ModerationList'))
