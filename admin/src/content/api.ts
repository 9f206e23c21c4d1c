import { httpClient } from '../providers/httpClient'
import type { AdminItem, ContentType } from './types'

const BASE = '/api/admin/content'

/** The edit lock token this tab holds, by item id; saves and actions carry it. */
export const lockTokens = new Map<string, string>()

export function lockHeaders(id: string): HeadersInit {
  const token = lockTokens.get(id)
  return token ? { 'X-Lock-Token': token } : {}
}

export async function fetchContentTypes(): Promise<ContentType[]> {
  const { json } = await httpClient(`${BASE}/types`)
  return (json ?? []) as ContentType[]
}

function itemURL(type: string, id: string, suffix = ''): string {
  return `${BASE}/${encodeURIComponent(type)}/${encodeURIComponent(id)}${suffix}`
}

export async function act(
  type: string,
  item: AdminItem,
  action: string,
  extra: { reason?: string; publish_at?: string } = {},
): Promise<AdminItem> {
  const { json } = await httpClient(itemURL(type, item.id, `/actions/${encodeURIComponent(action)}`), {
    method: 'POST',
    body: { version: item.version, ...extra },
    headers: lockHeaders(item.id),
  })
  return json as AdminItem
}

export interface Lock {
  item_id: string
  holder_id: string
  /** Who holds the lock, by name (their e-mail when they have none). */
  holder_name?: string
  mine: boolean
  token?: string
  expires_at: string
}

export async function lock(type: string, id: string, verb: 'acquire' | 'heartbeat' | 'takeover' | 'release'): Promise<Lock | undefined> {
  const path = { acquire: '/lock', heartbeat: '/lock/heartbeat', takeover: '/lock/takeover', release: '/lock' }[verb]
  const { json } = await httpClient(itemURL(type, id, path), {
    method: verb === 'release' ? 'DELETE' : 'POST',
    headers: verb === 'heartbeat' || verb === 'release' ? lockHeaders(id) : {},
  })
  return json as Lock | undefined
}

export interface Revision {
  revision: number
  action: string
  channel: string
  author_id?: string
  restored_from?: number
  created_at: string
  snapshot: { title: string; status: string }
}

export interface Change {
  field: string
  label: string
  before: unknown
  after: unknown
}

export async function revisions(type: string, id: string): Promise<Revision[]> {
  return ((await httpClient(itemURL(type, id, '/revisions'))).json ?? []) as Revision[]
}

export async function diff(type: string, id: string, from: number, to: number): Promise<Change[]> {
  return ((await httpClient(itemURL(type, id, `/revisions/diff?from=${from}&to=${to}`))).json ?? []) as Change[]
}

export async function restore(type: string, item: AdminItem, revision: number): Promise<AdminItem> {
  const { json } = await httpClient(itemURL(type, item.id, `/revisions/${revision}/restore`), {
    method: 'POST',
    body: { version: item.version },
    headers: lockHeaders(item.id),
  })
  return json as AdminItem
}

export interface AuditEvent {
  id: number
  item_id: string
  item_type: string
  revision: number
  action: string
  channel: string
  actor_id?: string
  /** The actor's name as the server knows it (members outside the team too). */
  actor_name?: string
  from?: string
  to: string
  reason?: string
  ip?: string
  created_at: string
}

export async function timeline(type: string, id: string): Promise<AuditEvent[]> {
  return ((await httpClient(itemURL(type, id, '/timeline'))).json ?? []) as AuditEvent[]
}

export interface ReviewComment {
  id: number
  revision: number
  author_id?: string
  body: string
  created_at: string
}

export async function comments(type: string, id: string): Promise<ReviewComment[]> {
  return ((await httpClient(itemURL(type, id, '/comments'))).json ?? []) as ReviewComment[]
}

export async function addComment(type: string, id: string, body: string): Promise<void> {
  await httpClient(itemURL(type, id, '/comments'), { method: 'POST', body: { body } })
}

export async function previewLink(type: string, id: string): Promise<{ token: string; expires_at: string }> {
  return (await httpClient(itemURL(type, id, '/preview'), { method: 'POST' })).json
}

export interface Upload {
  key: string
  url: string
  content_type: string
  size: number
}

/** Uploads an image or a material as multipart; the client adds the CSRF header and refreshes an expired session. */
export async function upload(kind: 'image' | 'file', file: File): Promise<Upload> {
  const form = new FormData()
  form.append('file', file)
  const { json } = await httpClient(`${BASE}/uploads?kind=${kind}`, { method: 'POST', body: form })
  return json as Upload
}

export interface Agenda {
  publish: AdminItem[]
  unpublish: AdminItem[]
  overdue: AdminItem[]
}

export async function agenda(from: Date, to: Date): Promise<Agenda> {
  const q = `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`
  return (await httpClient(`/api/admin/agenda?${q}`)).json as Agenda
}

export interface Member {
  id: string
  email: string
  name: string
  roles: string[]
}

export async function team(): Promise<Member[]> {
  return ((await httpClient('/api/admin/team')).json ?? []) as Member[]
}

export async function reviewer(type: string, id: string): Promise<string> {
  return ((await httpClient(itemURL(type, id, '/reviewer'))).json?.reviewer_id ?? '') as string
}

export async function assignReviewer(type: string, id: string, reviewerId: string): Promise<void> {
  await httpClient(itemURL(type, id, '/reviewer'), { method: 'PUT', body: { reviewer_id: reviewerId } })
}

/** A co-editor: the id and name only (the API never gives their e-mail). */
export interface CoEditor {
  user_id: string
  name: string
}

export async function coEditors(type: string, id: string): Promise<CoEditor[]> {
  return ((await httpClient(itemURL(type, id, '/editors'))).json ?? []) as CoEditor[]
}

export async function share(type: string, id: string, userId: string, on: boolean): Promise<CoEditor[]> {
  const { json } = await httpClient(itemURL(type, id, `/editors/${encodeURIComponent(userId)}`), { method: on ? 'PUT' : 'DELETE' })
  return (json ?? []) as CoEditor[]
}

/** One item on a dashboard work queue (GET /api/admin/queue). */
export interface QueueItem {
  id: string
  type: string
  title: string
  status: string
  status_label: string
  updated_at: string
  publish_at?: string
  /** The reviewer's comment, on items sent back for changes. */
  reason?: string
}

/** The signed-in person's work: what waits for their review, what was sent back to them, what is scheduled. */
export interface WorkQueue {
  awaiting_my_review: QueueItem[]
  changes_requested: QueueItem[]
  scheduled: QueueItem[]
}

export async function workQueue(): Promise<WorkQueue> {
  const { json } = await httpClient('/api/admin/queue')
  return json as WorkQueue
}
