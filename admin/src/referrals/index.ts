import { lazy } from 'react'

// Their own chunk: only super admins open them.
export const ReferralList = lazy(() => import('./ReferralList'))
export const ReferralProgramPage = lazy(() => import('./ReferralProgramPage'))
