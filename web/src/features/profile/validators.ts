import { MIN_BIOGRAPHY_LENGTH, MIN_TITLE_LENGTH, serverTrim, trimmedLength } from './completeness'
import type { ProfileUpdate } from './types'
import { formatCpf, normalizeCpf } from '@/lib/cpf'

export { formatCpf, normalizeCpf }

// A port of core/profiles/validate.go with the same pt-BR reasons, so the edit form
// can point at a bad field before saving. The server stays the authority: its
// per-field messages (ApiError.fields) replace these when a save is refused.

export const MAX_NAME_LENGTH = 100
export const MAX_TITLE_LENGTH = 120
export const MAX_BIOGRAPHY_LENGTH = 2000

export const BRAZILIAN_STATES: readonly string[] = [
  'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA',
  'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO',
]

// Area codes in use (Anatel), as on the server.
const VALID_DDDS = new Set(
  `11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38
   41 42 43 44 45 46 47 48 49 51 53 54 55 61 62 63 64 65 66 67 68 69 71 73 74 75 77 79
   81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 99`.split(/\s+/),
)

const CRMV_FORMAT = 'CRMV inválido. Use o formato CRMV-UF 12345 (ex.: CRMV-SP 12345).'

// What people type: "CRMV-SP 12345", "crmv sp 12345", "CRMV/SP-12345", "SP 12345",
// "12345-SP", "CRMV-SP nº 12345".
const crmvPrefixed = /^(?:CRMV)?[\s\-/.:]*([A-Z]{2})[\s\-/.:]*(?:N[º°O.]?\s*)?(\d{1,6})$/u
const crmvSuffixed = /^(?:CRMV)?[\s\-/.:]*(\d{1,6})[\s\-/.:]*([A-Z]{2})$/u

type Normalised = { value: string; error?: undefined } | { value?: undefined; error: string }

/** The canonical 'CRMV-UF NUMBER' form, or the pt-BR reason. */
export function normalizeCrmv(raw: string): Normalised {
  const s = serverTrim(raw).toUpperCase()
  if (s === '') return { error: 'Informe o CRMV.' }
  let uf: string | undefined
  let number: string | undefined
  const prefixed = crmvPrefixed.exec(s)
  const suffixed = prefixed ? null : crmvSuffixed.exec(s)
  if (prefixed) [, uf, number] = prefixed
  else if (suffixed) [, number, uf] = suffixed
  if (uf === undefined || number === undefined) return { error: CRMV_FORMAT }
  if (!BRAZILIAN_STATES.includes(uf)) {
    return { error: `UF do CRMV inválida: ${uf}. Use a sigla de um estado brasileiro (ex.: CRMV-SP 12345).` }
  }
  number = number.replace(/^0+/, '')
  if (number === '') return { error: CRMV_FORMAT }
  return { value: `CRMV-${uf} ${number}` }
}

export function onlyDigits(value: string): string {
  return value.replace(/[^0-9]/g, '')
}

/** DDD + number digits (10 for a landline, 11 for a mobile), or the pt-BR reason. */
export function normalizePhone(raw: string): Normalised {
  if (!/^\+?[\d\s().-]*$/.test(raw)) {
    return { error: 'Telefone inválido: use apenas números, com DDD (ex.: (11) 98765-4321).' }
  }
  let d = onlyDigits(raw)
  if ((d.length === 12 || d.length === 13) && d.startsWith('55')) d = d.slice(2)
  // A trunk prefix: "0 11 98765-4321".
  if ((d.length === 11 || d.length === 12) && d[0] === '0') d = d.slice(1)
  if (d.length !== 10 && d.length !== 11) {
    return { error: 'Telefone inválido: informe DDD e número, com 10 ou 11 dígitos (ex.: (11) 98765-4321).' }
  }
  const ddd = d.slice(0, 2)
  if (!VALID_DDDS.has(ddd)) return { error: `DDD inválido: ${ddd}.` }
  const first = d[2] ?? ''
  if (d.length === 11 && first !== '9') {
    return { error: 'Celular inválido: números com 11 dígitos começam com 9 depois do DDD.' }
  }
  if (d.length === 10 && !(first >= '2' && first <= '5')) {
    return { error: 'Telefone fixo inválido: depois do DDD o número começa com 2, 3, 4 ou 5.' }
  }
  return { value: d }
}

/** '(11) 98765-4321' / '(11) 3456-7890' for stored digits; anything else unchanged. */
export function formatPhone(value: string): string {
  const d = onlyDigits(value)
  if (d.length === 11) return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`
  if (d.length === 10) return `(${d.slice(0, 2)}) ${d.slice(2, 6)}-${d.slice(6)}`
  return value
}

export type ProfileFieldErrors = Partial<Record<keyof ProfileUpdate, string>>

/** One pt-BR reason per invalid field, the same as the server answers in `fields`. */
export function validateProfile(u: ProfileUpdate): ProfileFieldErrors {
  const bad: ProfileFieldErrors = {}

  if (trimmedLength(u.first_name) === 0) bad.first_name = 'Informe seu nome.'
  else if (trimmedLength(u.first_name) > MAX_NAME_LENGTH) {
    bad.first_name = `O nome deve ter no máximo ${MAX_NAME_LENGTH} caracteres.`
  }
  if (trimmedLength(u.last_name) === 0) bad.last_name = 'Informe seu sobrenome.'
  else if (trimmedLength(u.last_name) > MAX_NAME_LENGTH) {
    bad.last_name = `O sobrenome deve ter no máximo ${MAX_NAME_LENGTH} caracteres.`
  }

  // Title and biography are optional: their minimums apply only to what is
  // filled (completeness lists them as missing instead).
  const title = trimmedLength(u.title)
  if (title > 0 && title < MIN_TITLE_LENGTH) bad.title = `O título deve ter pelo menos ${MIN_TITLE_LENGTH} caracteres.`
  else if (title > MAX_TITLE_LENGTH) bad.title = `O título deve ter no máximo ${MAX_TITLE_LENGTH} caracteres.`
  const bio = trimmedLength(u.biography)
  if (bio > 0 && bio < MIN_BIOGRAPHY_LENGTH) {
    bad.biography = `A biografia deve ter pelo menos ${MIN_BIOGRAPHY_LENGTH} caracteres.`
  } else if (bio > MAX_BIOGRAPHY_LENGTH) {
    bad.biography = `A biografia deve ter no máximo ${MAX_BIOGRAPHY_LENGTH} caracteres.`
  }

  if (u.is_not_veterinarian && u.has_crmv) {
    bad.has_crmv = 'Quem não é médico-veterinário não pode informar CRMV.'
  }
  if (u.has_crmv) {
    const crmv = normalizeCrmv(u.crmv)
    if (crmv.error) bad.crmv = crmv.error
  }

  if (trimmedLength(u.phone) === 0) {
    if (u.has_whatsapp) bad.phone = 'Informe o telefone para indicar que ele tem WhatsApp.'
  } else {
    const phone = normalizePhone(u.phone)
    if (phone.error) bad.phone = phone.error
  }

  if (trimmedLength(u.cpf) !== 0) {
    const cpf = normalizeCpf(u.cpf)
    if (cpf.error) bad.cpf = cpf.error
  }
  return bad
}
