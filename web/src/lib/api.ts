import { csrfHeaders, refreshSession, sendWithSession } from '@vetclube/session-client'
import { recordApiError } from './apiErrors'

// The CSRF header, the single-flight refresh and the retry live in
// session-client/ (shared with the backoffice); this module owns the
// transport (fetch, or XMLHttpRequest for upload progress) and the pt-BR errors.
export { refreshSession }

/** The CSRF header for a request this module does not send (a streamed answer read with fetch). */
export { csrfHeaders }

/**
 * An error answered by the API ({"error":{code,message,fields}}) or a failure to
 * reach it (status 0, code ENETWORK). `message` is always pt-BR and safe to show.
 */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly fields: Record<string, string>
  readonly requestId?: string
  /** The refusal is a plan limit ({"error":{…,"upgrade":true}}): invite to Premium. */
  readonly upgrade: boolean

  constructor(status: number, code: string, message: string, fields: Record<string, string> = {}, requestId?: string, upgrade = false) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.fields = fields
    this.requestId = requestId
    this.upgrade = upgrade
  }
}

export const NETWORK_ERROR_MESSAGE = 'Erro de conectividade. Verifique sua conexão e tente novamente.'
export const GENERIC_ERROR_MESSAGE = 'Erro ao processar requisição. Tente novamente.'

export interface ApiFetchOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD'
  /** Sent as JSON. */
  body?: unknown
  /** Sent as multipart/form-data instead of `body`. */
  form?: FormData
  signal?: AbortSignal
  /** Upload progress 0–1; switches the request to XMLHttpRequest (fetch cannot report it). */
  onUploadProgress?: (fraction: number) => void
  /** Skip the refresh-and-retry on 401 (the auth screens want the raw answer). */
  noRefresh?: boolean
  /** Extra request headers (e.g. Idempotency-Key); they never replace the CSRF or content headers. */
  headers?: Record<string, string>
  /** Let the request outlive the page (fetch keepalive): a last save sent on pagehide. */
  keepalive?: boolean
}

interface RawResponse {
  status: number
  text: string
}

/**
 * Calls the VetClube API with the session cookies, the CSRF header on unsafe
 * methods, one transparent session refresh on 401, and pt-BR errors as ApiError.
 */
export async function apiFetch<T>(path: string, options: ApiFetchOptions = {}): Promise<T> {
  const method = options.method ?? (options.body !== undefined || options.form ? 'POST' : 'GET')
  try {
    const res = await sendWithSession(path, () => send(path, options), { noRefresh: options.noRefresh })
    return parse<T>(res)
  } catch (err) {
    // The debug page lists the last failures with their request ids.
    if (err instanceof ApiError) {
      recordApiError({ method, path, status: err.status, code: err.code, message: err.message, requestId: err.requestId })
    }
    throw err
  }
}

function buildHeaders(method: string, hasJsonBody: boolean, extra: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = { ...extra, Accept: 'application/json', ...csrfHeaders(method) }
  if (hasJsonBody) headers['Content-Type'] = 'application/json'
  return headers
}

async function send(path: string, options: ApiFetchOptions): Promise<RawResponse> {
  const method = options.method ?? (options.body !== undefined || options.form ? 'POST' : 'GET')
  const hasJsonBody = options.body !== undefined && !options.form
  const headers = buildHeaders(method, hasJsonBody, options.headers)
  const payload = options.form ?? (hasJsonBody ? JSON.stringify(options.body) : undefined)

  if (options.onUploadProgress) {
    return sendWithXhr(path, method, headers, payload, options.signal, options.onUploadProgress)
  }
  try {
    const res = await fetch(path, { method, headers, body: payload, credentials: 'include', signal: options.signal, keepalive: options.keepalive })
    return { status: res.status, text: await res.text() }
  } catch (err) {
    if (isAbort(err)) throw err
    throw new ApiError(0, 'ENETWORK', NETWORK_ERROR_MESSAGE)
  }
}

function sendWithXhr(
  path: string,
  method: string,
  headers: Record<string, string>,
  payload: XMLHttpRequestBodyInit | undefined,
  signal: AbortSignal | undefined,
  onUploadProgress: (fraction: number) => void,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open(method, path)
    xhr.withCredentials = true
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value)
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onUploadProgress(e.loaded / e.total)
    }
    xhr.onload = () => {
      onUploadProgress(1)
      resolve({ status: xhr.status, text: xhr.responseText })
    }
    xhr.onerror = () => reject(new ApiError(0, 'ENETWORK', NETWORK_ERROR_MESSAGE))
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'))
    if (signal) {
      if (signal.aborted) return xhr.abort()
      signal.addEventListener('abort', () => xhr.abort(), { once: true })
    }
    xhr.send(payload ?? null)
  })
}

function parse<T>(res: RawResponse): T {
  let data: unknown = undefined
  if (res.text) {
    try {
      data = JSON.parse(res.text)
    } catch {
      data = undefined
    }
  }
  if (res.status >= 200 && res.status < 300) return data as T

  const body = (data as { error?: { code?: string; message?: string; fields?: Record<string, string>; request_id?: string; upgrade?: boolean } } | undefined)?.error
  throw new ApiError(
    res.status,
    body?.code ?? `HTTP_${res.status}`,
    body?.message ?? GENERIC_ERROR_MESSAGE,
    body?.fields ?? {},
    body?.request_id,
    body?.upgrade === true,
  )
}

function isAbort(err: unknown): boolean {
  return err instanceof DOMException && err.name === 'AbortError'
}

/** True for errors a retry might fix (no answer, or a 5xx). 4xx answers are final. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof ApiError) return error.status === 0 || error.status >= 500
  return true
}
