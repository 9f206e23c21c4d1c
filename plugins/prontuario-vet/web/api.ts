import { ApiError } from '@/lib/api'
import { toolFetch } from '@/features/ferramentas'

export const TOOL = 'prontuario-vet'

export interface Tutor {
  name: string
  phone: string
  email: string
  cpf: string
  address: string
}

export interface PatientData {
  breed: string
  sex: 'macho' | 'femea' | 'indefinido'
  neutered: boolean
  birth_date: string
  approx_age: string
  microchip: string
  coat: string
  tutor: Tutor
  allergies: string
  chronic_conditions: string
  photo_file_id: string
}

export interface Patient {
  id: string
  name: string
  species: string
  species_label: string
  data: PatientData
  archived: boolean
  version: number
  whatsapp_url: string
  latest_weight_kg: number | null
  created_at: string
  updated_at: string
}

export interface VitalFlag {
  value: number
  min?: number
  max?: number
  status: 'baixo' | 'normal' | 'alto' | 'sem_referencia'
}

export interface Attachment {
  id: string
  name?: string
  kind?: string
}

export interface RecordData {
  anamnesis?: string
  physical_exam?: string
  temperature_c?: number
  heart_rate?: number
  respiratory_rate?: number
  diagnoses?: string
  plan?: string
  weight_kg?: number
  vaccine?: string
  lot?: string
  next_dose?: string
  drug?: string
  presentation?: string
  concentration_mg_ml?: number
  dose_mg_kg?: number
  dose_mg?: number
  volume_ml?: number
  route?: string
  frequency?: string
  duration?: string
  quantity?: string
  instructions?: string
  exam_name?: string
  result?: string
  attachments?: Attachment[]
  text?: string
}

export type Kind = 'consulta' | 'vacina' | 'prescricao' | 'exame' | 'peso' | 'nota'

export interface VetRecord {
  id: string
  patient_id: string
  kind: Kind
  kind_label: string
  date: string
  data: RecordData
  version: number
  revisions: number
  vitals?: Record<string, VitalFlag>
  created_at: string
  updated_at: string
}

export interface Range {
  Min: number
  Max: number
}

export interface Meta {
  species: { value: string; label: string; min_kg: number; max_kg: number; vitals: Record<string, Range> | null }[]
  routes: string[]
  kinds: Record<Kind, string>
  active_patients: number
  limit: number
  can_add: boolean
  limit_reason: string
}

export interface Page<T> {
  items: T[]
  total: number
  page: number
  per_page: number
}

export interface UpcomingVaccine {
  record_id: string
  patient_id: string
  patient_name: string
  vaccine: string
  next_dose: string
  tutor_name: string
  tutor_phone: string
}

export interface RecordRevision {
  edited_by: string
  edited_at: string
  date: string
  data: RecordData
}

export const api = <T>(path: string, options?: Parameters<typeof toolFetch>[2]) => toolFetch<T>(TOOL, path, options)

/** Downloads a file answered by the tool (a PDF, an export) under its own name. */
export async function download(path: string, filename: string): Promise<void> {
  const res = await fetch(`/api/tools/${TOOL}/${path}`, { credentials: 'include' })
  if (!res.ok) {
    let message = 'Não foi possível baixar o arquivo. Tente novamente.'
    try {
      message = ((await res.json()) as { error?: { message?: string } }).error?.message ?? message
    } catch {
      // keep the generic message
    }
    throw new ApiError(res.status, `HTTP_${res.status}`, message)
  }
  const url = URL.createObjectURL(await res.blob())
  const a = document.createElement('a')
  a.href = url
  a.download = filename
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** Uploads a photo or exam file through the core's tool-file guard. */
export function uploadFile(file: File): Promise<{ id: string; kind: string; name: string }> {
  const form = new FormData()
  form.append('file', file)
  return toolFetch(TOOL, 'files', { method: 'POST', form })
}

export const fileURL = (id: string) => `/api/tools/${TOOL}/files/${encodeURIComponent(id)}`

/** DD/MM/AAAA from YYYY-MM-DD. */
export function brDate(iso: string | undefined): string {
  if (!iso) return ''
  const [y, m, d] = iso.slice(0, 10).split('-')
  return `${d}/${m}/${y}`
}

export const num = (v: number | undefined | null, digits = 2) =>
  v == null ? '' : v.toLocaleString('pt-BR', { maximumFractionDigits: digits })

export const todayISO = () => {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}
