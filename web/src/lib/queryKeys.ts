/**
 * Query keys shared across features. After changing the profile, invalidate
 * `queryKeys.profile` so the sidebar, home and banner follow.
 */
export const queryKeys = {
  profile: ['profile'] as const,
  myProfile: ['profile', 'me'] as const,
  profileCompleteness: ['profile', 'completeness'] as const,
  subscription: ['subscription'] as const,
  pointsBalance: ['points', 'balance'] as const,
}
