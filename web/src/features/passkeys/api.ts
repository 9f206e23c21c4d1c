import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'
import { creationOptions, credentialToJSON, requestOptions } from './webauthn'

export type Passkey = { id: string; name: string; created_at: string; last_used_at: string | null }
type Ceremony = { ceremony: string; options: { publicKey: Record<string, unknown> } }

const key = ['auth', 'passkeys'] as const

export function usePasskeys() {
  return useQuery({ queryKey: key, queryFn: () => apiFetch<{ passkeys: Passkey[] }>('/api/auth/passkeys').then((r) => r.passkeys) })
}

/** Creates a passkey on this device and stores it under name. */
export async function addPasskey(name: string): Promise<{ message: string }> {
  const c = await apiFetch<Ceremony>('/api/auth/passkey/register', { method: 'POST' })
  const cred = (await navigator.credentials.create({ publicKey: creationOptions(c.options.publicKey) })) as PublicKeyCredential | null
  if (!cred) throw new DOMException('no credential', 'NotAllowedError')
  return apiFetch('/api/auth/passkeys', { method: 'POST', body: { ceremony: c.ceremony, name, credential: credentialToJSON(cred) } })
}

/** Signs in with a passkey the browser offers (no e-mail typed). */
export async function signInWithPasskey(): Promise<unknown> {
  const c = await apiFetch<Ceremony>('/api/auth/passkey/login', { method: 'POST', noRefresh: true })
  const cred = (await navigator.credentials.get({ publicKey: requestOptions(c.options.publicKey) })) as PublicKeyCredential | null
  if (!cred) throw new DOMException('no credential', 'NotAllowedError')
  return apiFetch('/api/auth/passkey/login/verify', { method: 'POST', noRefresh: true, body: { ceremony: c.ceremony, credential: credentialToJSON(cred) } })
}

export function useAddPasskey() {
  const qc = useQueryClient()
  return useMutation({ retry: false, mutationFn: addPasskey, onSuccess: () => qc.invalidateQueries({ queryKey: key }) })
}

export function useRenamePasskey() {
  const qc = useQueryClient()
  return useMutation({
    retry: false,
    mutationFn: (v: { id: string; name: string }) => apiFetch<{ message: string }>(`/api/auth/passkeys/${encodeURIComponent(v.id)}`, { method: 'PATCH', body: { name: v.name } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  })
}

export function useRemovePasskey() {
  const qc = useQueryClient()
  return useMutation({
    retry: false,
    mutationFn: (id: string) => apiFetch<{ message: string }>(`/api/auth/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  })
}
