import { HttpError, type DataProvider, type RaRecord } from 'ra-core'
import { lockHeaders } from './api'
import { typeOfResource, type AdminItem } from './types'

/** The common columns; every other field error belongs to fields.<name>. */
const COMMON = ['title', 'summary', 'slug']

/**
 * The API's 422 names fields as the server knows them ("body", "title");
 * the form's inputs live at "fields.body" and "title". react-admin shows a
 * rejected save's body.errors beside each input, and root.serverError as the
 * notification.
 */
export function formErrors(error: unknown): unknown {
  if (!(error instanceof HttpError) || error.status !== 422) return error
  const body = error.body as { error?: { message?: string; fields?: Record<string, string> } } | undefined
  const fields = body?.error?.fields ?? {}
  const errors: Record<string, unknown> = {}
  for (const [name, message] of Object.entries(fields)) {
    errors[COMMON.includes(name) ? name : `fields.${name}`] = message
  }
  errors.root = { serverError: error.message }
  return new HttpError(error.message, error.status, { ...body, errors })
}

/** What the API accepts on a save: the editable parts, nothing else. */
export function inputOf(data: Partial<AdminItem>) {
  const fields: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(data.fields ?? {})) {
    if (v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)) fields[k] = v
  }
  return { slug: data.slug ?? '', title: data.title ?? '', summary: data.summary ?? '', fields }
}

/**
 * Wraps the simple-rest provider for the content resources: saves send only
 * the input (and the version they edited, and the edit lock), creates carry
 * an idempotency key so a retried click creates once, and 422s become form
 * errors. getMany reads each item by id: the admin list takes no id filter,
 * and an item the user may not see (an editor reaches only their own and
 * those shared with them) is left out instead of failing the whole read.
 * Other resources pass through.
 */
export function withContent(base: DataProvider, client: (url: string, options?: any) => Promise<{ json: any }>): DataProvider {
  return {
    ...base,
    async getMany(resource, params) {
      const type = typeOfResource(resource)
      if (!type) return base.getMany(resource, params)
      const found = await Promise.all(
        params.ids.map(async (id) => {
          try {
            const { json } = await client(`/api/admin/${resource}/${encodeURIComponent(String(id))}`)
            return json as RaRecord
          } catch (e) {
            if (e instanceof HttpError && e.status === 404) return undefined
            throw e
          }
        }),
      )
      return { data: found.filter((r): r is RaRecord => r !== undefined) as any[] }
    },
    async create(resource, params) {
      const type = typeOfResource(resource)
      if (!type) return base.create(resource, params)
      try {
        const { json } = await client(`/api/admin/${resource}`, {
          method: 'POST',
          body: inputOf(params.data),
          headers: { 'Idempotency-Key': (params.meta?.idempotencyKey as string) ?? crypto.randomUUID() },
        })
        return { data: json }
      } catch (e) {
        throw formErrors(e)
      }
    },
    async update(resource, params) {
      const type = typeOfResource(resource)
      if (!type) return base.update(resource, params)
      const id = String(params.id)
      try {
        const { json } = await client(`/api/admin/${resource}/${encodeURIComponent(id)}`, {
          method: 'PUT',
          body: { version: params.previousData?.version ?? params.data.version, ...inputOf(params.data) },
          headers: lockHeaders(id),
        })
        return { data: json }
      } catch (e) {
        throw formErrors(e)
      }
    },
  }
}
