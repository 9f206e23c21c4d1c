import { queryOptions, useQuery } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'

/** One field of a form tool, as described by its plugin (plugins/sdk/form.go). */
export interface ToolField {
  name: string
  label: string
  type: 'number' | 'select' | 'text' | 'boolean' | 'date'
  unit?: string
  required?: boolean
  min?: number
  max?: number
  step?: number
  options?: { value: string; label: string }[]
  default?: unknown
  help?: string
  show_if?: { field: string; values: string[] }
  /** The field's noun with its article ("a dose"), for messages that agree with it. */
  noun?: string
}

export interface ToolForm {
  id: string
  title: string
  description?: string
  action: string
  submit?: string
  fields: ToolField[]
}

/** An entry of GET /api/tools. */
export interface Tool {
  id: string
  name: string
  description: string
  version: string
  icon: string
  category: string
  slug: string
  access: 'user' | 'premium'
  premium: boolean
  locked: boolean
  ui_kind: 'form' | 'custom'
  ui_schema?: { forms: ToolForm[] }
  available: boolean
}

/** What a form action answers. */
export interface ToolResult {
  values: { label: string; number: number; unit?: string; display: string }[]
  tables?: { title: string; columns: string[]; rows: string[][] }[]
  explanation?: string
  reference?: string
}

export const toolsKey = ['tools'] as const

export const toolsQuery = queryOptions({
  queryKey: toolsKey,
  queryFn: () => apiFetch<{ tools: Tool[] }>('/api/tools').then((r) => r.tools),
  staleTime: 60_000,
})

export function useTools() {
  return useQuery(toolsQuery)
}

/** Calls a tool's own API: /api/tools/<id>/<path>. */
export function toolFetch<T>(toolId: string, path: string, options: Parameters<typeof apiFetch>[1] = {}): Promise<T> {
  return apiFetch<T>(`/api/tools/${encodeURIComponent(toolId)}/${path.replace(/^\//, '')}`, options)
}
