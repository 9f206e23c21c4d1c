// The CPF, Brazil's individual taxpayer number, as the profile form and the
// boleto checkout take it: a port of core/profiles' NormalizeCPF with the
// same pt-BR reasons. The server stays the authority.

/** The digits of a CPF typed with or without dots and dash. */
export function cpfDigits(value: string): string {
  return value.replace(/\D/g, '')
}

/**
 * The 11 digits of a valid CPF, or the pt-BR reason: 11 digits, not all
 * equal, and both check digits right (mod 11 over weights 10..2, then 11..2).
 */
export function normalizeCpf(raw: string): { value: string; error?: undefined } | { error: string; value?: undefined } {
  if (!/^[\d.\-\s/]*$/.test(raw)) return { error: 'CPF inválido: use apenas números (ex.: 123.456.789-09).' }
  const d = cpfDigits(raw)
  if (d.length !== 11) return { error: 'CPF inválido: deve ter 11 dígitos.' }
  if (/^(\d)\1{10}$/.test(d)) return { error: 'CPF inválido.' }
  for (const n of [9, 10]) {
    let sum = 0
    for (let i = 0; i < n; i++) sum += Number(d[i]) * (n + 1 - i)
    let check = (sum * 10) % 11
    if (check === 10) check = 0
    if (Number(d[n]) !== check) return { error: 'CPF inválido.' }
  }
  return { value: d }
}

/** Whether value is a valid CPF (normalizeCpf without the reason). */
export function isValidCpf(value: string): boolean {
  return normalizeCpf(value).error === undefined
}

/** "12345678909" → "123.456.789-09", partial input kept as far as it goes (while typing). */
export function formatCpf(value: string): string {
  const d = cpfDigits(value).slice(0, 11)
  if (d.length <= 3) return d
  if (d.length <= 6) return `${d.slice(0, 3)}.${d.slice(3)}`
  if (d.length <= 9) return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6)}`
  return `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`
}
