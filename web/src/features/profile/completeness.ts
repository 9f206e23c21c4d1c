import type { CompletenessField } from './types'

// A profile is complete when first and last name are non-blank, the title has
// at least 3 characters, the biography at least 10, there is at least one specialty,
// and the CRMV is non-blank when the user says they have one. The server answers the
// same question at GET /api/profile/completeness; this copy lets the edit form show
// what is still missing as the user types.

export const MIN_TITLE_LENGTH = 3
export const MIN_BIOGRAPHY_LENGTH = 10

export type CompletenessInput = {
  first_name?: string | null
  last_name?: string | null
  title?: string | null
  biography?: string | null
  specialties?: readonly string[] | null
  has_crmv?: boolean | null
  crmv?: string | null
}

// Go's strings.TrimSpace trims Unicode White_Space; String.prototype.trim differs
// (it keeps U+0085 and drops U+FEFF), so the server's notion is spelled out.
const edgeSpace = /^\p{White_Space}+|\p{White_Space}+$/gu

/** The value trimmed exactly as the server (Go strings.TrimSpace) trims it. */
export function serverTrim(value: string | null | undefined): string {
  return (value ?? '').replace(edgeSpace, '')
}

/** Length in characters (code points) after trimming, as the server counts it. */
export function trimmedLength(value: string | null | undefined): number {
  return [...serverTrim(value)].length
}

/** The missing fields in a fixed order; empty means the profile is complete. */
export function missingProfileFields(p: CompletenessInput): CompletenessField[] {
  const missing: CompletenessField[] = []
  if (trimmedLength(p.first_name) === 0) missing.push('first_name')
  if (trimmedLength(p.last_name) === 0) missing.push('last_name')
  if (trimmedLength(p.title) < MIN_TITLE_LENGTH) missing.push('title')
  if (trimmedLength(p.biography) < MIN_BIOGRAPHY_LENGTH) missing.push('biography')
  if ((p.specialties ?? []).length === 0) missing.push('specialties')
  if (p.has_crmv && trimmedLength(p.crmv) === 0) missing.push('crmv')
  return missing
}

export function isProfileComplete(p: CompletenessInput): boolean {
  return missingProfileFields(p).length === 0
}

/** pt-BR names of the fields, for "what is missing" lists. */
export const completenessFieldLabel: Record<CompletenessField, string> = {
  first_name: 'Nome',
  last_name: 'Sobrenome',
  title: 'Título profissional',
  biography: 'Biografia',
  specialties: 'Especialidades',
  crmv: 'CRMV',
}

/** Share of the six rules met, 0–100, for the progress bar on /profile. */
export function completenessPercent(p: CompletenessInput): number {
  const rules = p.has_crmv ? 6 : 5
  return Math.round(((rules - missingProfileFields(p).length) / rules) * 100)
}
