/**
 * Query keys shared across features. Each key is read by exactly one hook, in
 * the feature that owns it (profile: myProfile and profileCompleteness;
 * subscription: subscription; pontos: pointsBalance), so it always holds one
 * type; other code only writes or invalidates it. After changing the profile,
 * invalidate `queryKeys.profile` so the sidebar, home and banner follow.
 * `community` is the root of the community feature's keys (feeds, posts,
 * comments; see features/comunidade/api.ts): invalidate it to refresh them all.
 * `courses` is the root of the courses feature's keys (catalogue, statistics,
 * course and lesson pages, the home's last course, certificates; see
 * features/cursos/api.ts). `videos` is the root of the exclusive videos' keys
 * (library, statistics, player, the home card; see features/videos/api.ts).
 */
export const queryKeys = {
  profile: ['profile'] as const,
  myProfile: ['profile', 'me'] as const,
  profileCompleteness: ['profile', 'completeness'] as const,
  subscription: ['subscription'] as const,
  pointsBalance: ['points', 'balance'] as const,
  community: ['community'] as const,
  courses: ['cursos'] as const,
  videos: ['videos'] as const,
}
