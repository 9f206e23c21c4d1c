import type { DetailedError, HttpRequest, Upload } from 'tus-js-client'
import { csrfHeaders, refreshSession } from '../providers/httpClient'
import { ASSET_ID_HEADER, UPLOADS_ENDPOINT, assetOfUpload } from './api'
import { serverMessage } from './format'

/**
 * Waits before each new try after a failed request: 0 s, 1 s, 3 s, 5 s, then
 * every 10–30 s, about 3 minutes in all. A dropped connection mid-upload is
 * resumed from the offset the server confirms (HEAD), not from the start.
 */
export const RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10_000, 10_000, 20_000, 30_000, 30_000, 30_000, 30_000]

/**
 * Sent as separate PATCH requests, so a proxy's body limit never applies to a
 * 4 GB video and a dropped connection loses at most one chunk's progress.
 */
export const CHUNK_BYTES = 16 * 1024 * 1024

const FALLBACK = 'Não foi possível enviar o arquivo. Tente novamente.'

/** The status of a failed tus request, 0 when it never got an answer (network). */
export function statusOf(err: unknown): number {
  return (err as DetailedError | undefined)?.originalResponse?.getStatus?.() ?? 0
}

/**
 * Whether to try a failed request again: network failures and 5xx yes (the
 * upload resumes from the server's offset), a 401 after refreshing the
 * session, a 409/423 (offset mismatch, locked) yes; other 4xx are the
 * server's refusals (type, size, permission): no.
 */
export function shouldRetry(status: number): boolean {
  if (status === 0 || status >= 500) return true
  return status === 401 || status === 409 || status === 423
}

/** The pt-BR message for a failed upload, from the server's body when it has one. */
export function uploadErrorMessage(err: unknown): string {
  const res = (err as DetailedError | undefined)?.originalResponse
  if (!res) return 'A conexão com o servidor caiu. O envio continua de onde parou quando você clicar em Retomar.'
  const status = res.getStatus()
  if (status === 413) return serverMessage(res.getBody(), 'O arquivo é maior que o limite aceito.')
  if (status === 401) return 'Sua sessão expirou. Entre de novo e retome o envio.'
  if (status === 403) return serverMessage(res.getBody(), 'Você não tem permissão para enviar arquivos.')
  return serverMessage(res.getBody(), FALLBACK)
}

export interface UploadEvents {
  onProgress: (sent: number, total: number) => void
  /** The asset the upload fills, as soon as the server names it. */
  onAsset: (assetId: string) => void
  /** A request failed and will be tried again shortly. */
  onRetrying: () => void
  onSuccess: () => void
  onError: (message: string, status: number) => void
}

/**
 * A resumable tus upload to the media endpoint. The CSRF header is read
 * anew for every request (the token rotates with the session), an expired
 * session is refreshed once, and the upload's URL is remembered in
 * localStorage under the file's fingerprint, so choosing the same file again
 * after a reload resumes it (see start()).
 */
export async function createUpload(file: File, events: UploadEvents): Promise<{ upload: Upload; start: () => Promise<void> }> {
  // Loaded with the first upload: the content forms that show the uploader need not carry it.
  const { Upload } = await import('tus-js-client')
  let refreshing: Promise<boolean> | null = null
  let assetId = ''
  const named = (id: string) => {
    if (!id || id === assetId) return
    assetId = id
    events.onAsset(id)
  }
  const upload = new Upload(file, {
    endpoint: UPLOADS_ENDPOINT,
    chunkSize: CHUNK_BYTES,
    retryDelays: RETRY_DELAYS_MS,
    metadata: { filename: file.name, filetype: file.type || 'application/octet-stream' },
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    async onBeforeRequest(req: HttpRequest) {
      if (refreshing) await refreshing
      for (const [name, value] of Object.entries(csrfHeaders(req.getMethod()))) req.setHeader(name, value)
    },
    onAfterResponse(req, res) {
      if (req.getMethod() === 'POST') named(res.getHeader(ASSET_ID_HEADER) ?? '')
    },
    onUploadUrlAvailable() {
      // A resumed upload (no creation request this time) is found by its tus id.
      if (!assetId && upload.url) {
        void assetOfUpload(upload.url)
          .then((a) => a && named(a.id))
          .catch(() => {})
      }
    },
    onShouldRetry(err) {
      const status = statusOf(err)
      if (!shouldRetry(status)) return false
      if (status === 401) refreshing ??= refreshSession().finally(() => (refreshing = null))
      events.onRetrying()
      return true
    },
    onProgress: (sent, total) => events.onProgress(sent, total),
    onSuccess: () => events.onSuccess(),
    onError: (err) => events.onError(uploadErrorMessage(err), statusOf(err)),
  })
  const start = async () => {
    try {
      const previous = await upload.findPreviousUploads()
      if (previous.length > 0) upload.resumeFromPreviousUpload(previous[0]!)
    } catch {
      // No storage (private mode): the upload simply starts from zero.
    }
    upload.start()
  }
  return { upload, start }
}
