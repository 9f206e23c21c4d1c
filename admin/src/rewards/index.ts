import { lazy } from 'react'

// Their own chunk: only super admins open them.
export const RewardList = lazy(() => import('./RewardResources').then((m) => ({ default: m.RewardList })))
export const RewardCreate = lazy(() => import('./RewardResources').then((m) => ({ default: m.RewardCreate })))
export const RewardEdit = lazy(() => import('./RewardResources').then((m) => ({ default: m.RewardEdit })))
export const RedemptionList = lazy(() => import('./RewardResources').then((m) => ({ default: m.RedemptionList })))
