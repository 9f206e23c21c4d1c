// The client half of the shared password validator. The server (core/auth/password)
// is the authority; this copy exists so the sign-up and reset forms can show the
// same pt-BR reasons live, before a request is made. Both sides are tested against
// core/auth/password/testdata/cases.json, so a rule changed on one side only fails CI.

export const MIN_PASSWORD_LENGTH = 8

export const passwordReasonText = {
  tooShort: `deve ter pelo menos ${MIN_PASSWORD_LENGTH} caracteres`,
  noUpper: 'deve conter pelo menos uma letra maiúscula',
  noLower: 'deve conter pelo menos uma letra minúscula',
  noDigit: 'deve conter pelo menos um número',
  noSymbol: 'deve conter pelo menos um caractere especial',
  containsEmail: 'não pode conter a parte do email antes do @',
} as const

export type PasswordReason = keyof typeof passwordReasonText

// Unicode classes rather than ASCII ranges, matching Go's unicode.IsUpper/IsLower/
// IsDigit and IsPunct||IsSymbol||IsSpace: 'Ç' is upper case, '€' and a space count
// as special characters on both sides.
const upper = /\p{Lu}/u
const lower = /\p{Ll}/u
const digit = /\p{Nd}/u
const symbol = /[\p{P}\p{S}\p{White_Space}]/u

function emailLocalPart(email: string): string {
  // Trimmed like Go's strings.TrimSpace (Unicode White_Space), not String.trim.
  const normalised = email.replace(/^\p{White_Space}+|\p{White_Space}+$/gu, '').toLowerCase()
  const at = normalised.indexOf('@')
  return at === -1 ? normalised : normalised.slice(0, at)
}

/** The failed rules, in the order the server lists them. Empty means valid. */
export function passwordReasons(password: string, email = ''): PasswordReason[] {
  const reasons: PasswordReason[] = []
  // Code points, not UTF-16 units: the server counts runes.
  if ([...password].length < MIN_PASSWORD_LENGTH) reasons.push('tooShort')
  if (!upper.test(password)) reasons.push('noUpper')
  if (!lower.test(password)) reasons.push('noLower')
  if (!digit.test(password)) reasons.push('noDigit')
  if (!symbol.test(password)) reasons.push('noSymbol')
  const local = emailLocalPart(email)
  if (local !== '' && password.toLowerCase().includes(local)) reasons.push('containsEmail')
  return reasons
}

/** The pt-BR reason texts of the failed rules. */
export function passwordReasonMessages(password: string, email = ''): string[] {
  return passwordReasons(password, email).map((r) => passwordReasonText[r])
}

/** 'Senha inválida: ' plus the reasons joined by ', ', or null when the password is valid. */
export function passwordError(password: string, email = ''): string | null {
  const messages = passwordReasonMessages(password, email)
  return messages.length === 0 ? null : `Senha inválida: ${messages.join(', ')}`
}
