// WebAuthn in the browser: the server's JSON options (base64url binary
// fields) to the objects navigator.credentials wants, and the credential back
// to JSON the server parses.

export function b64urlToBytes(s: string): ArrayBuffer {
  const pad = '='.repeat((4 - (s.length % 4)) % 4)
  const bin = atob((s + pad).replace(/-/g, '+').replace(/_/g, '/'))
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out.buffer
}

export function bytesToB64url(buf: ArrayBuffer | ArrayBufferView): string {
  const bytes = buf instanceof ArrayBuffer ? new Uint8Array(buf) : new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength)
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

type JsonDescriptor = { id: string; type: string; transports?: string[] }

/** The creation options of a registration, binary fields decoded. */
export function creationOptions(pk: Record<string, unknown>): PublicKeyCredentialCreationOptions {
  const user = pk.user as { id: string; name: string; displayName: string }
  const exclude = (pk.excludeCredentials as JsonDescriptor[] | undefined) ?? []
  return {
    ...(pk as unknown as PublicKeyCredentialCreationOptions),
    challenge: b64urlToBytes(pk.challenge as string),
    user: { ...user, id: b64urlToBytes(user.id) },
    excludeCredentials: exclude.map((c) => ({ ...c, id: b64urlToBytes(c.id) }) as PublicKeyCredentialDescriptor),
  }
}

/** The request options of a sign-in, binary fields decoded. */
export function requestOptions(pk: Record<string, unknown>): PublicKeyCredentialRequestOptions {
  const allow = (pk.allowCredentials as JsonDescriptor[] | undefined) ?? []
  return {
    ...(pk as unknown as PublicKeyCredentialRequestOptions),
    challenge: b64urlToBytes(pk.challenge as string),
    allowCredentials: allow.map((c) => ({ ...c, id: b64urlToBytes(c.id) }) as PublicKeyCredentialDescriptor),
  }
}

/** A created or asserted credential as the JSON the server parses. */
export function credentialToJSON(cred: PublicKeyCredential): Record<string, unknown> {
  const r = cred.response as AuthenticatorResponse & Partial<AuthenticatorAttestationResponse & AuthenticatorAssertionResponse>
  const response: Record<string, unknown> = { clientDataJSON: bytesToB64url(r.clientDataJSON) }
  if (r.attestationObject) {
    response.attestationObject = bytesToB64url(r.attestationObject)
    response.transports = typeof r.getTransports === 'function' ? r.getTransports() : []
  }
  if (r.authenticatorData) response.authenticatorData = bytesToB64url(r.authenticatorData)
  if (r.signature) response.signature = bytesToB64url(r.signature)
  if (r.userHandle) response.userHandle = bytesToB64url(r.userHandle)
  return {
    id: cred.id,
    rawId: bytesToB64url(cred.rawId),
    type: cred.type,
    authenticatorAttachment: cred.authenticatorAttachment ?? undefined,
    clientExtensionResults: cred.getClientExtensionResults?.() ?? {},
    response,
  }
}

export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function' && !!navigator.credentials
}

/** The pt-BR message for a browser-side failure of a ceremony. */
export function ceremonyErrorMessage(err: unknown): string {
  if (err instanceof DOMException) {
    if (err.name === 'NotAllowedError') return 'A operação com a passkey foi cancelada ou expirou.'
    if (err.name === 'InvalidStateError') return 'Este dispositivo já tem uma passkey desta conta.'
    if (err.name === 'SecurityError') return 'Passkeys não funcionam neste endereço. Use o endereço oficial do VetClube.'
  }
  return 'Não foi possível usar a passkey neste dispositivo.'
}
