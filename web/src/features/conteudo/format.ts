import type { ContentField, ContentItem, ContentType } from './api'

const dateFormat = new Intl.DateTimeFormat('pt-BR', { day: 'numeric', month: 'long', year: 'numeric' })

/** "23 de novembro de 2026". */
export function formatDate(iso: string): string {
  const t = Date.parse(iso)
  return Number.isNaN(t) ? '' : dateFormat.format(new Date(t))
}

/** The label of a select field's value ('cirurgia' → 'Cirurgia'). */
export function optionLabel(field: ContentField | undefined, value: unknown): string {
  if (typeof value !== 'string') return ''
  return field?.options?.find((o) => o.value === value)?.label ?? value
}

export function fieldOf(type: ContentType, kind: string, name?: string): ContentField | undefined {
  return type.fields.find((f) => f.kind === kind && (name === undefined || f.name === name))
}

/** The item's cover: its first image field with a value, as a public URL. */
export function coverURL(type: ContentType, item: ContentItem): string | undefined {
  for (const f of type.fields) {
    const v = item.fields?.[f.name]
    if (f.kind === 'image' && typeof v === 'string' && v) return `/uploads/${v}`
  }
  return undefined
}

/** '5 min de leitura' when the type computes a reading time. */
export function readingTime(item: ContentItem): string {
  const m = item.fields?.reading_minutes
  return typeof m === 'number' && m > 0 ? `${m} min de leitura` : ''
}

/** The labels of the item's listed select values (its category, say). */
export function badges(type: ContentType, item: ContentItem): string[] {
  return type.fields
    .filter((f) => f.kind === 'select' && item.fields?.[f.name])
    .map((f) => optionLabel(f, item.fields[f.name]))
    .filter(Boolean)
}
