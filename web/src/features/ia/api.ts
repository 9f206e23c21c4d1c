import { apiFetch, ApiError, csrfHeaders, GENERIC_ERROR_MESSAGE, NETWORK_ERROR_MESSAGE } from '@/lib/api'

export interface Quota {
  premium: boolean
  daily_limit: number
  used_today: number
  remaining: number
  monthly_tokens?: number
  tokens_this_month?: number
  resets_at: string
}

export interface AiStatus {
  mode: 'demo' | 'live'
  model: string
  disclaimer: string
  disclaimer_accepted: boolean
  quota: Quota
  suggestions: string[]
}

export interface Conversation {
  id: string
  title: string
  created_at: string
  updated_at: string
}

export interface Source {
  n: number
  item_id: string
  type: string
  title: string
  url: string
  text: string
  cited: boolean
}

export interface ToolRun {
  name: string
  title: string
  result: string
  error?: string
}

export type MessageStatus = 'streaming' | 'complete' | 'stopped' | 'failed' | 'length'

export interface Message {
  id: string
  seq: number
  role: 'user' | 'assistant'
  content: string
  status: MessageStatus
  red_flags: string[]
  sources: Source[]
  tools?: ToolRun[]
  model?: string
  created_at: string
  retryable?: boolean
  error?: string
}

export const getStatus = () => apiFetch<AiStatus>('/api/ai/status')
export const acceptDisclaimer = () => apiFetch<{ disclaimer_accepted: boolean }>('/api/ai/disclaimer', { method: 'POST', body: {} })
export const listConversations = (q = '') =>
  apiFetch<{ conversations: Conversation[] }>('/api/ai/conversations' + (q.trim() ? `?q=${encodeURIComponent(q.trim())}` : '')).then((r) => r.conversations)
export const createConversation = () =>
  apiFetch<Conversation>('/api/ai/conversations', { method: 'POST', body: { client_id: crypto.randomUUID() } })
export const getConversation = (id: string) =>
  apiFetch<{ conversation: Conversation; messages: Message[] }>(`/api/ai/conversations/${encodeURIComponent(id)}`)
export const renameConversation = (id: string, title: string) =>
  apiFetch<Conversation>(`/api/ai/conversations/${encodeURIComponent(id)}`, { method: 'PATCH', body: { title } })
export const deleteConversation = (id: string) => apiFetch<void>(`/api/ai/conversations/${encodeURIComponent(id)}`, { method: 'DELETE' })
export const reportAnswer = (id: string, reason: string) =>
  apiFetch<{ reported: boolean }>(`/api/ai/messages/${encodeURIComponent(id)}/report`, { method: 'POST', body: { reason } })

/** The 429 of a limit: the pt-BR explanation, the quota and (non-premium) the Premium invitation. */
export class LimitReached extends ApiError {
  readonly quota?: Quota
  readonly invitation?: { text: string; url: string }
  constructor(message: string, quota?: Quota, invitation?: { text: string; url: string }) {
    super(429, 'rate_limited', message)
    this.quota = quota
    this.invitation = invitation
  }
}

export interface AskInput {
  content?: string
  edit_of?: string
  regenerate?: boolean
}

export interface StreamHandlers {
  onAlert?: (data: { red_flags: string[]; text: string }) => void
  onTurn?: (data: { conversation_id: string; title: string; question: Message; answer_id: string; quota: Quota }) => void
  onSources?: (sources: Source[]) => void
  onDelta?: (text: string) => void
  onTool?: (run: ToolRun) => void
  onDone?: (answer: Message) => void
}

/**
 * Sends a question and reads the answer's server-sent events. Aborting the
 * signal closes the stream: that is 'Parar' (the server stops the answer
 * and saves what arrived).
 */
export async function ask(conversationId: string, input: AskInput, handlers: StreamHandlers, signal: AbortSignal): Promise<void> {
  const path = `/api/ai/conversations/${encodeURIComponent(conversationId)}/messages`
  let res: Response
  try {
    res = await fetch(path, {
      method: 'POST',
      credentials: 'include',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', ...csrfHeaders('POST') },
      body: JSON.stringify({ ...input, client_id: crypto.randomUUID() }),
      signal,
    })
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') return
    throw new ApiError(0, 'ENETWORK', NETWORK_ERROR_MESSAGE)
  }
  if (!res.ok) {
    let body: { error?: { code?: string; message?: string }; quota?: Quota; premium_invitation?: { text: string; url: string } } = {}
    try {
      body = await res.json()
    } catch {
      /* not JSON */
    }
    const message = body.error?.message ?? GENERIC_ERROR_MESSAGE
    if (res.status === 429) throw new LimitReached(message, body.quota, body.premium_invitation)
    throw new ApiError(res.status, body.error?.code ?? `HTTP_${res.status}`, message)
  }
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  try {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) break
      buffer += decoder.decode(value, { stream: true })
      let at: number
      while ((at = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, at)
        buffer = buffer.slice(at + 2)
        dispatch(block, handlers)
      }
    }
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') return
    if (signal.aborted) return
    throw new ApiError(0, 'ENETWORK', NETWORK_ERROR_MESSAGE)
  }
}

function dispatch(block: string, h: StreamHandlers) {
  let event = 'message'
  const data: string[] = []
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim()
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''))
  }
  if (data.length === 0) return
  let payload: unknown
  try {
    payload = JSON.parse(data.join('\n'))
  } catch {
    return
  }
  switch (event) {
    case 'alert':
      h.onAlert?.(payload as { red_flags: string[]; text: string })
      break
    case 'turn':
      h.onTurn?.(payload as Parameters<NonNullable<StreamHandlers['onTurn']>>[0])
      break
    case 'sources':
      h.onSources?.((payload as { sources: Source[] }).sources)
      break
    case 'tool':
      h.onTool?.(payload as ToolRun)
      break
    case 'delta':
      h.onDelta?.((payload as { text: string }).text)
      break
    case 'done':
      h.onDone?.(payload as Message)
      break
  }
}

/** Citation markers [n] become links to the cited source's page. */
export function linkCitations(text: string, sources: Source[]): string {
  return text.replace(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g, (whole, list: string) => {
    const parts = list.split(',').map((p) => {
      const n = Number(p.trim())
      const src = sources.find((s) => s.n === n)
      return src ? `[\\[${n}\\]](${src.url})` : ''
    })
    const kept = parts.filter(Boolean)
    return kept.length ? kept.join(' ') : whole
  })
}
