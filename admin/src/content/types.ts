/** A content type as GET /api/admin/content/types declares it (core/content Type). */
export type FieldKind =
  | 'text'
  | 'long_text'
  | 'number'
  | 'boolean'
  | 'select'
  | 'multi_select'
  | 'tags'
  | 'date'
  | 'datetime'
  | 'image'
  | 'video'
  | 'file'
  | 'url'
  | 'reference'
  | 'children'

export interface FieldOption {
  value: string
  label: string
}

export interface ContentField {
  name: string
  label: string
  kind: FieldKind
  help?: string
  required?: boolean
  min?: number
  max?: number
  pattern?: string
  pattern_message?: string
  options?: FieldOption[]
  target?: string
  many?: boolean
  listed?: boolean
  filterable?: boolean
  sortable?: boolean
  searchable?: boolean
  computed?: boolean
}

export interface ContentType {
  id: string
  singular: string
  plural: string
  icon: string
  route?: string
  fields: ContentField[]
  list: { default_sort: { field: string; desc?: boolean }; page_size: number }
  workflow: 'editorial' | 'publish_on_create'
}

export type Status = 'rascunho' | 'em_revisao' | 'aprovado' | 'agendado' | 'publicado' | 'arquivado' | 'alteracoes_solicitadas'

export interface WorkflowAction {
  action: string
  label: string
}

/** A working copy with the actions the signed-in user may take (core/editorial AdminItem). */
export interface AdminItem {
  id: string
  type: string
  status: Status
  status_label: string
  version: number
  slug: string
  title: string
  summary: string
  fields: Record<string, unknown>
  author_id?: string
  published: boolean
  has_draft: boolean
  created_at: string
  updated_at: string
  published_at?: string
  publish_at?: string
  unpublish_at?: string
  actions: WorkflowAction[]
  /** The reviewer's open request for changes (only while alteracoes_solicitadas). */
  change_request?: ChangeRequest | null
}

/** What the reviewer asked with 'Solicitar alterações', by whom and when. */
export interface ChangeRequest {
  reason: string
  by_id?: string
  by_name: string
  at: string
}

export const RESOURCE_PREFIX = 'content/'

export function resourceName(typeId: string): string {
  return RESOURCE_PREFIX + typeId
}

export function typeOfResource(resource: string): string | undefined {
  return resource.startsWith(RESOURCE_PREFIX) ? resource.slice(RESOURCE_PREFIX.length) : undefined
}
