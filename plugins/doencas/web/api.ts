import { toolFetch } from '@/features/ferramentas'

export interface Option {
  value: string
  label: string
}

/** A disease in the list (plugins/doencas handler.go Summary). */
export interface DiseaseSummary {
  slug: string
  name: string
  summary: string
  synonyms: string[]
  species: Option[]
  system: Option
  zoonotic: boolean
  notifiable: boolean
  favorite: boolean
  notification_list?: string
}

/** A disease's page (plugins/doencas handler.go Detail). */
export interface Disease extends DiseaseSummary {
  agent_type: Option
  agent: string
  transmission: string
  clinical_signs: string
  diagnosis: string
  treatment: string
  prevention: string
  notification: { required: boolean; list?: string; label?: string; deadline?: string; note?: string }
  woah_listed: boolean
  references: string[]
}

export interface DiseasePage {
  items: DiseaseSummary[]
  total: number
  page: number
  page_size: number
}

export interface Filters {
  q: string
  especie: string
  sistema: string
  zoonotica: string
  notificavel: string
  favoritas: string
  pagina: number
}

export const TOOL_ID = 'doencas'
export const diseasesKey = ['tools', TOOL_ID] as const

export function listParams(f: Filters): string {
  const p = new URLSearchParams()
  if (f.q.trim()) p.set('q', f.q.trim())
  for (const k of ['especie', 'sistema', 'zoonotica', 'notificavel', 'favoritas'] as const) if (f[k]) p.set(k, f[k])
  if (f.pagina > 1) p.set('pagina', String(f.pagina))
  return p.toString()
}

export const fetchOptions = () => toolFetch<{ species: Option[]; systems: Option[] }>(TOOL_ID, 'opcoes')
export const fetchList = (f: Filters) => toolFetch<DiseasePage>(TOOL_ID, `doencas?${listParams(f)}`)
export const fetchDisease = (slug: string) => toolFetch<Disease>(TOOL_ID, `doencas/${encodeURIComponent(slug)}`)
export const setFavorite = (slug: string, on: boolean) =>
  toolFetch<{ slug: string; favorite: boolean }>(TOOL_ID, `doencas/${encodeURIComponent(slug)}/favorito`, { method: on ? 'PUT' : 'DELETE' })
