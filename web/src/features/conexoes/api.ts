import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError, apiFetch } from '@/lib/api'
import { queryKeys } from '@/lib/queryKeys'
import { toast } from '@/components/ui/toast'

// Shapes of core/connections (GET/POST /api/connections...).

/** A member as the connection screens show them: public fields only. */
export interface ConnectionUser {
  id: string
  first_name: string
  last_name: string
  avatar_url: string | null
  title: string | null
  verified: boolean
  specialties: string[]
}

export interface ConnectionRequest {
  id: string
  user: ConnectionUser
  created_at: string
}

export interface Connection {
  id: string
  user: ConnectionUser
  connected_at: string
}

export interface ConnectionLists {
  received: ConnectionRequest[]
  sent: ConnectionRequest[]
  connections: Connection[]
}

export type PairStatus = 'none' | 'pending_sent' | 'pending_received' | 'connected' | 'blocked'

export interface ConnectionStatus {
  status: PairStatus
  id: string | null
}

export interface Suggestion {
  user: ConnectionUser
  mutual_count: number
  shared_specialties: string[]
}

export interface MutualConnections {
  mutual: ConnectionUser[]
  count: number
}

interface WriteResult {
  id: string | null
  status: 'pending' | 'connected' | 'none'
}

// Every key lives under ['connections'], so one invalidation (here, or the
// notification dropdown's after Aceitar / Recusar) refreshes them all.
export const connectionKeys = {
  all: ['connections'] as const,
  lists: (q: string) => ['connections', 'lists', q] as const,
  suggestions: ['connections', 'suggestions'] as const,
  status: (userId: string) => ['connections', 'status', userId] as const,
  mutual: (userId: string) => ['connections', 'mutual', userId] as const,
}

const FRESH = 30_000
// Other members change these (a request arrives, one is accepted), and the
// cache is restored from storage on a reload: read them again on every visit.
const LIVE = { staleTime: 0, refetchOnMount: 'always' } as const
const empty: ConnectionLists = { received: [], sent: [], connections: [] }

// Read failures show empty lists or status none, silently.
async function orElse<T>(load: () => Promise<T>, fallback: T): Promise<T> {
  try {
    return await load()
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err
    return fallback
  }
}

/** GET /api/connections?q=: requests both ways and connections filtered by name. */
export function useConnectionLists(q: string) {
  const query = q.trim()
  return useQuery({
    queryKey: connectionKeys.lists(query),
    queryFn: ({ signal }) =>
      orElse(() => apiFetch<ConnectionLists>(`/api/connections${query ? `?q=${encodeURIComponent(query)}` : ''}`, { signal }), empty),
    ...LIVE,
    // Typing in the search keeps the last list on screen instead of a spinner.
    placeholderData: keepPreviousData,
  })
}

/** GET /api/connections/suggestions: up to six people to connect with. */
export function useSuggestions(enabled = true) {
  return useQuery({
    queryKey: connectionKeys.suggestions,
    queryFn: ({ signal }) =>
      orElse(() => apiFetch<{ suggestions: Suggestion[] }>('/api/connections/suggestions', { signal }).then((r) => r.suggestions), []),
    staleTime: FRESH,
    enabled,
  })
}

/** GET /api/connections/status/{userId}: the pair as the signed-in user sees it. */
export function useConnectionStatus(userId: string, enabled = true) {
  return useQuery({
    queryKey: connectionKeys.status(userId),
    queryFn: ({ signal }) =>
      orElse(
        () => apiFetch<ConnectionStatus>(`/api/connections/status/${encodeURIComponent(userId)}`, { signal }),
        { status: 'none', id: null } as ConnectionStatus,
      ),
    ...LIVE,
    enabled: enabled && userId !== '',
  })
}

/** GET /api/connections/mutual/{userId}: people connected to both. */
export function useMutualConnections(userId: string, enabled = true) {
  return useQuery({
    queryKey: connectionKeys.mutual(userId),
    queryFn: ({ signal }) =>
      orElse(() => apiFetch<MutualConnections>(`/api/connections/mutual/${encodeURIComponent(userId)}`, { signal }), {
        mutual: [],
        count: 0,
      }),
    staleTime: FRESH,
    enabled: enabled && userId !== '',
  })
}

/** The API's pt-BR reason for a refusal, else the action's own message. */
export function failureMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError && err.status >= 400 && err.status < 500) return err.message
  return fallback
}

// What members read about connections (pt-BR, character for character).
export const messages = {
  sent: 'Solicitação de conexão enviada!',
  accepted: 'Conexão aceita!',
  rejected: 'Conexão rejeitada',
  removed: 'Conexão removida',
  cancelled: 'Solicitação cancelada',
  sendFailed: 'Erro ao enviar solicitação de conexão',
  acceptFailed: 'Erro ao aceitar conexão',
  rejectFailed: 'Erro ao rejeitar conexão',
  removeFailed: 'Erro ao remover conexão',
  cancelFailed: 'Erro ao cancelar solicitação',
}

function useConnectionMutation<V>(
  request: (v: V) => Promise<WriteResult>,
  success: (r: WriteResult) => string,
  failure: string,
) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: request,
    onSuccess: (r) => {
      toast.success(success(r))
    },
    onError: (err) => {
      toast.error(failureMessage(err, failure))
    },
    onSettled: () => {
      // Lists, statuses, suggestions and mutuals all move together, and so
      // does connections_count on the profiles.
      void queryClient.invalidateQueries({ queryKey: connectionKeys.all })
      void queryClient.invalidateQueries({ queryKey: queryKeys.profile })
    },
  })
}

/** POST /api/connections: asks (or, when they asked first, accepts) userId. */
export function useRequestConnection() {
  return useConnectionMutation(
    (userId: string) => apiFetch<WriteResult>('/api/connections', { method: 'POST', body: { user_id: userId } }),
    (r) => (r.status === 'connected' ? messages.accepted : messages.sent),
    messages.sendFailed,
  )
}

const answer = (id: string, action: 'accept' | 'reject') =>
  apiFetch<WriteResult>(`/api/connections/${encodeURIComponent(id)}/${action}`, { method: 'POST' })

export function useAcceptConnection() {
  return useConnectionMutation((id: string) => answer(id, 'accept'), () => messages.accepted, messages.acceptFailed)
}

export function useRejectConnection() {
  return useConnectionMutation((id: string) => answer(id, 'reject'), () => messages.rejected, messages.rejectFailed)
}

const remove = (id: string) => apiFetch<WriteResult>(`/api/connections/${encodeURIComponent(id)}`, { method: 'DELETE' })

/** DELETE /api/connections/{id} on a connection. */
export function useRemoveConnection() {
  return useConnectionMutation(remove, () => messages.removed, messages.removeFailed)
}

/** DELETE /api/connections/{id} on one's own pending request. */
export function useCancelRequest() {
  return useConnectionMutation(remove, () => messages.cancelled, messages.cancelFailed)
}
