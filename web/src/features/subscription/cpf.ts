/** The 11 digits of a CPF typed with or without dots and dash. */
export function cpfDigits(value: string): string {
  return value.replace(/\D/g, '')
}

/** "12345678909" → "123.456.789-09" while typing (partial input kept as far as it goes). */
export function formatCpf(value: string): string {
  const d = cpfDigits(value).slice(0, 11)
  return d.replace(/^(\d{3})(\d)/, '$1.$2').replace(/^(\d{3})\.(\d{3})(\d)/, '$1.$2.$3').replace(/\.(\d{3})(\d{1,2})$/, '.$1-$2')
}

/**
 * A CPF is valid when it has 11 digits, not all equal, and both check digits
 * match (mod 11 over weights 10..2, then 11..2). The server checks it too.
 */
export function isValidCpf(value: string): boolean {
  const d = cpfDigits(value)
  if (d.length !== 11 || /^(\d)\1{10}$/.test(d)) return false
  const nums = [...d].map(Number)
  const check = (len: number) => {
    let sum = 0
    for (let i = 0; i < len; i++) sum += (nums[i] ?? 0) * (len + 1 - i)
    const rest = (sum * 10) % 11
    return rest === 10 ? 0 : rest
  }
  return check(9) === nums[9] && check(10) === nums[10]
}
