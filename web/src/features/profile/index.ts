// What other features may use of the profile: the signed-in member's profile, its
// completeness and the specialties list.
export { useMyProfile, useProfileCompleteness, useSpecialties } from './api'
