type Names = { first_name?: string | null; last_name?: string | null }

/** 'Ana Souza' from the trimmed names; '' when neither is set. */
export function fullName(p: Names | null | undefined): string {
  return [p?.first_name, p?.last_name].map((s) => (s ?? '').trim()).filter(Boolean).join(' ')
}

/** The full name, or 'Usuário' for someone who has not filled in a name. */
export function displayName(p: Names | null | undefined): string {
  return fullName(p) || 'Usuário'
}
