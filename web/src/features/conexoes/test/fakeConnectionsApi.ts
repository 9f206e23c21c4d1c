import { vi } from 'vitest'
import type { ConnectionLists, ConnectionStatus, ConnectionUser, MutualConnections, Suggestion } from '../api'

export function person(id: string, first: string, overrides: Partial<ConnectionUser> = {}): ConnectionUser {
  return { id, first_name: first, last_name: 'Souza', avatar_url: null, title: 'Médica-veterinária', verified: false, specialties: [], ...overrides }
}

export interface Call {
  method: string
  path: string
  search: string
  body: unknown
}

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

interface State {
  lists: ConnectionLists
  suggestions: Suggestion[]
  status: Record<string, ConnectionStatus>
  mutual: Record<string, MutualConnections>
}

/**
 * The connection endpoints over in-memory state, at the network layer
 * (fetch), so the hooks, apiFetch and components run unchanged. Writes move
 * the state the way the server does; `fail` makes matching calls fail with
 * `failStatus` (500 unless given) and the server's message.
 */
export function fakeConnectionsApi(initial: Partial<State>, options: { fail?: (c: Call) => boolean; failStatus?: number; failMessage?: string } = {}) {
  const state: State = {
    lists: { received: [], sent: [], connections: [] },
    suggestions: [],
    status: {},
    mutual: {},
    ...structuredClone(initial),
  }
  const calls: Call[] = []
  let next = 1
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost')
    const method = init?.method ?? 'GET'
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    const call = { method, path: url.pathname, search: url.search, body }
    calls.push(call)
    if (options.fail?.(call)) {
      return json(options.failStatus ?? 500, { error: { code: 'x', message: options.failMessage ?? 'Erro interno. Tente novamente.' } })
    }
    const p = url.pathname
    const { lists } = state
    if (method === 'GET' && p === '/api/connections') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase()
      return json(200, { ...lists, connections: lists.connections.filter((c) => c.user.first_name.toLowerCase().includes(q)) })
    }
    if (method === 'GET' && p === '/api/connections/suggestions') return json(200, { suggestions: state.suggestions })
    let m = p.match(/^\/api\/connections\/status\/(.+)$/)
    if (method === 'GET' && m) return json(200, state.status[m[1]!] ?? { status: 'none', id: null })
    m = p.match(/^\/api\/connections\/mutual\/(.+)$/)
    if (method === 'GET' && m) return json(200, state.mutual[m[1]!] ?? { mutual: [], count: 0 })
    if (method === 'POST' && p === '/api/connections') {
      const userId = (body as { user_id: string }).user_id
      const id = `new-${next++}`
      const suggestion = state.suggestions.find((s) => s.user.id === userId)
      state.suggestions = state.suggestions.filter((s) => s.user.id !== userId)
      if (suggestion) lists.sent.unshift({ id, user: suggestion.user, created_at: new Date().toISOString() })
      state.status[userId] = { status: 'pending_sent', id }
      return json(200, { id, status: 'pending' })
    }
    m = p.match(/^\/api\/connections\/([^/]+)\/(accept|reject)$/)
    if (method === 'POST' && m) {
      const r = lists.received.find((x) => x.id === m![1])
      lists.received = lists.received.filter((x) => x.id !== m![1])
      for (const [user, st] of Object.entries(state.status)) {
        if (st.id === m[1]) state.status[user] = m[2] === 'accept' ? { status: 'connected', id: st.id } : { status: 'none', id: null }
      }
      if (r && m[2] === 'accept') lists.connections.unshift({ id: r.id, user: r.user, connected_at: new Date().toISOString() })
      return json(200, m[2] === 'accept' ? { id: m[1], status: 'connected' } : { id: null, status: 'none' })
    }
    m = p.match(/^\/api\/connections\/([^/]+)$/)
    if (method === 'DELETE' && m) {
      lists.sent = lists.sent.filter((x) => x.id !== m![1])
      lists.connections = lists.connections.filter((x) => x.id !== m![1])
      for (const [user, st] of Object.entries(state.status)) {
        if (st.id === m[1]) state.status[user] = { status: 'none', id: null }
      }
      return json(200, { id: null, status: 'none' })
    }
    if (method === 'GET' && p === '/api/specialties') {
      return json(200, { specialties: [{ value: 'cirurgia', label: 'Cirurgia' }, { value: 'cardiologia', label: 'Cardiologia' }] })
    }
    return json(404, { error: { code: 'not_found', message: 'não encontrado' } })
  })
  vi.stubGlobal('fetch', fetchMock)
  return { calls, state }
}
