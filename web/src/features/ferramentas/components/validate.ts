import type { ToolField } from '../api'

export type Values = Record<string, string | boolean>

/** Whether a field is shown, given the other fields' values (show_if). */
export function isVisible(field: ToolField, values: Values): boolean {
  if (!field.show_if) return true
  return field.show_if.values.includes(String(values[field.show_if.field] ?? ''))
}

/** Parses "12,5" or "12.5"; NaN when not a number. */
export function parseNumber(raw: string): number {
  const s = raw.trim()
  if (s === '') return NaN
  const normalised = s.includes(',') ? s.replace(/\./g, '').replace(',', '.') : s
  return /^-?\d*\.?\d+$/.test(normalised) ? Number(normalised) : NaN
}

const fmt = (n: number) => n.toLocaleString('pt-BR', { maximumFractionDigits: 4 })

/** pt-BR messages per field, checked before sending (the plugin checks again). */
export function validate(fields: ToolField[], values: Values): Record<string, string> {
  const errors: Record<string, string> = {}
  for (const f of fields) {
    if (!isVisible(f, values)) continue
    const raw = values[f.name]
    const empty = raw === undefined || raw === ''
    if (f.type === 'boolean') continue
    if (empty) {
      if (f.required) errors[f.name] = `Preencha ${f.label.toLowerCase()}.`
      continue
    }
    if (f.type === 'number') {
      const n = parseNumber(String(raw))
      if (Number.isNaN(n)) errors[f.name] = `${f.label} deve ser um número.`
      else if (f.min !== undefined && n < f.min) errors[f.name] = `${f.label} deve ser no mínimo ${fmt(f.min)}${f.unit ? ' ' + f.unit : ''}.`
      else if (f.max !== undefined && n > f.max) errors[f.name] = `${f.label} deve ser no máximo ${fmt(f.max)}${f.unit ? ' ' + f.unit : ''}.`
    }
    if (f.type === 'select' && f.options && !f.options.some((o) => o.value === raw)) {
      errors[f.name] = `Selecione ${f.label.toLowerCase()}.`
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
