import type { ToolField } from '../api'

export type Values = Record<string, string | boolean>

/** Whether a field is shown, given the other fields' values (show_if). */
export function isVisible(field: ToolField, values: Values): boolean {
  if (!field.show_if) return true
  return field.show_if.values.includes(String(values[field.show_if.field] ?? ''))
}

/*
 * Numbers typed or pasted the Brazilian way. Same rule as the SDK's
 * ParseNumber (plugins/sdk/number.go), with the same table tests: a comma is
 * the decimal mark and dots before it group thousands ("1.234,5"); without a
 * comma a dot followed by exactly three digits groups thousands ("1.200" is
 * 1200), any other single dot is a decimal point ("1.5", "0.500"). An
 * optional sign and "R$" prefix are accepted; exponents are not.
 */
const withComma = /^(\d{1,3}(\.\d{3})+|\d*),\d+$/
const thousandsOnly = /^[1-9]\d{0,2}(\.\d{3})+$/
const plainDecimal = /^(\d+(\.\d*)?|\.\d+)$/

/** Parses "12,5", "1.200", "R$ 25.000,00" or "1.5"; NaN when not a number. */
export function parseNumber(raw: string): number {
  let s = raw.trim()
  let sign = 1
  if (s.startsWith('-') || s.startsWith('+')) {
    if (s.startsWith('-')) sign = -1
    s = s.slice(1).trim()
  }
  if (s.startsWith('R$')) s = s.slice(2).trim()
  if (withComma.test(s)) s = s.replace(/\./g, '').replace(',', '.')
  else if (thousandsOnly.test(s)) s = s.replace(/\./g, '')
  else if (!plainDecimal.test(s)) return NaN
  const n = Number(s)
  return Number.isFinite(n) ? sign * n : NaN
}

type Field = ToolField

/** How a message names a field and the words that agree with it (as the SDK's readform.go). */
function nounOf(f: Field) {
  const noun = f.noun?.trim() ?? ''
  const [article, ...rest] = noun.split(/\s+/)
  const index = rest.length > 0 ? ['o', 'a', 'os', 'as'].indexOf((article ?? '').toLowerCase()) : -1
  const text = index >= 0 ? noun : `o campo «${f.label}»`
  return {
    text,
    cap: text.charAt(0).toUpperCase() + text.slice(1),
    /** The form agreeing with the noun: masc. singular, fem. singular, masc. plural, fem. plural. */
    pick: (...forms: [string, string, string, string]) => forms[Math.max(index, 0)],
  }
}

const decimals = (n: number) => n.toLocaleString('pt-BR', { maximumFractionDigits: 4 })
const money = (n: number) => 'R$ ' + n.toLocaleString('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** A limit with its unit: "0,01 kg", "15%", and money as "R$ 0,00". */
function limit(n: number, unit?: string): string {
  if (unit === 'R$') return money(n)
  if (!unit) return decimals(n)
  return unit === '%' ? `${decimals(n)}%` : `${decimals(n)} ${unit}`
}

/** The SDK's rangeProblem, word for word. */
function rangeProblem(f: Field, x: number): string | undefined {
  const low = f.min !== undefined && x < f.min
  const high = f.max !== undefined && x > f.max
  if (!low && !high) return undefined
  const n = nounOf(f)
  const must = n.pick('deve', 'deve', 'devem', 'devem')
  if (f.min !== undefined && f.max !== undefined) {
    const from = f.unit === 'R$' ? limit(f.min, f.unit) : limit(f.min)
    return `${n.cap} ${must} estar entre ${from} e ${limit(f.max, f.unit)}.`
  }
  if (high) return `${n.cap} ${must} ser de no máximo ${limit(f.max!, f.unit)}.`
  if (f.min === 0) return `${n.cap} ${n.pick('não pode ser negativo', 'não pode ser negativa', 'não podem ser negativos', 'não podem ser negativas')}.`
  if (f.min! > 0 && x <= 0) return `${n.cap} ${must} ser ${n.pick('maior', 'maior', 'maiores', 'maiores')} que zero.`
  return `${n.cap} ${must} ser de no mínimo ${limit(f.min!, f.unit)}.`
}

/**
 * pt-BR messages per field, checked before sending (the plugin checks again
 * with the same wording, agreeing with the field's noun).
 */
export function validate(fields: Field[], values: Values): Record<string, string> {
  const errors: Record<string, string> = {}
  for (const f of fields) {
    if (!isVisible(f, values)) continue
    const raw = values[f.name]
    const empty = raw === undefined || raw === ''
    if (f.type === 'boolean') continue
    if (empty) {
      if (f.required) errors[f.name] = `Preencha ${f.noun?.trim() || f.label.toLowerCase()}.`
      continue
    }
    if (f.type === 'number') {
      const n = parseNumber(String(raw))
      const problem = Number.isNaN(n) ? `Informe ${nounOf(f).text} em números.` : rangeProblem(f, n)
      if (problem) errors[f.name] = problem
    }
    if (f.type === 'select' && f.options && !f.options.some((o) => o.value === raw)) {
      errors[f.name] = `Selecione ${f.noun?.trim() || f.label.toLowerCase()}.`
    }
  }
  return errors
}

/** The JSON body sent to the plugin: numbers as numbers, hidden fields left out. */
export function payload(fields: ToolField[], values: Values): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const f of fields) {
    if (!isVisible(f, values)) continue
    const raw = values[f.name]
    if (raw === undefined || raw === '') continue
    out[f.name] = f.type === 'number' ? parseNumber(String(raw)) : raw
  }
  return out
}

/** Initial values from each field's default. */
export function initialValues(fields: ToolField[]): Values {
  const values: Values = {}
  for (const f of fields) {
    if (f.type === 'boolean') values[f.name] = Boolean(f.default)
    else values[f.name] = f.default === undefined || f.default === null ? '' : String(f.default)
  }
  return values
}
