import type { MediaAsset, MediaKind, MediaState } from './types'

const GiB = 1024 ** 3
const MiB = 1024 ** 2

/**
 * What the server accepts per kind: extensions and the largest size. The
 * server checks the same limits (and the real type from the first bytes);
 * checking here spares the editor an upload that would be refused.
 */
export const MEDIA_LIMITS: Record<MediaKind, { extensions: string[]; mimeTypes: string[]; maxBytes: number }> = {
  video: {
    extensions: ['mp4', 'mov', 'webm', 'mkv'],
    mimeTypes: ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska'],
    maxBytes: 4 * GiB,
  },
  image: {
    extensions: ['jpg', 'jpeg', 'png', 'webp', 'gif'],
    mimeTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
    maxBytes: 20 * MiB,
  },
  document: { extensions: ['pdf'], mimeTypes: ['application/pdf'], maxBytes: 100 * MiB },
}

export const ALL_KINDS: MediaKind[] = ['video', 'image', 'document']

// 'Documento': the library also holds the Office files (DOCX, XLSX, PPTX)
// attached to content file fields, not only PDFs sent through it.
const KIND_LABEL: Record<MediaKind, string> = { video: 'Vídeo', image: 'Imagem', document: 'Documento' }
const KIND_NOUN: Record<MediaKind, string> = { video: 'O vídeo', image: 'A imagem', document: 'O PDF' }

export function kindLabel(kind: MediaKind): string {
  return KIND_LABEL[kind] ?? kind
}

/** The lower-case extension of a file name, without the dot ('' when none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.')
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase()
}

/** The kind a file name's extension implies, or undefined when none accepts it. */
export function kindOfName(name: string): MediaKind | undefined {
  const ext = extensionOf(name)
  return ALL_KINDS.find((k) => MEDIA_LIMITS[k].extensions.includes(ext))
}

/** The file input's accept attribute for the given kinds. */
export function acceptFor(kinds: MediaKind[]): string {
  return kinds.flatMap((k) => [...MEDIA_LIMITS[k].extensions.map((e) => `.${e}`), ...MEDIA_LIMITS[k].mimeTypes]).join(',')
}

function typesText(kinds: MediaKind[]): string {
  const parts = kinds.map((k) => {
    const exts = MEDIA_LIMITS[k].extensions
    const list = exts.length > 1 ? `${exts.slice(0, -1).join(', ')} ou ${exts[exts.length - 1]}` : exts[0]
    return k === 'video' ? `vídeos (${list})` : k === 'image' ? `imagens (${list})` : 'PDF'
  })
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} ou ${parts[parts.length - 1]}` : parts[0]!
}

export type Precheck = { ok: true; kind: MediaKind } | { ok: false; message: string }

/** Checks a chosen file's extension and size against the limits of the kinds allowed here. */
export function precheck(file: { name: string; size: number }, allowed: MediaKind[] = ALL_KINDS): Precheck {
  const kind = kindOfName(file.name)
  if (!kind || !allowed.includes(kind)) {
    return { ok: false, message: `Tipo de arquivo não aceito: envie ${typesText(allowed)}.` }
  }
  if (file.size <= 0) return { ok: false, message: 'O arquivo está vazio.' }
  const max = MEDIA_LIMITS[kind].maxBytes
  if (file.size > max) {
    const size = formatBytes(file.size)
    const limit = formatBytes(max)
    // Just over the limit, both round to the same text: say only the limit.
    const message = size === limit ? `${KIND_NOUN[kind]} passa do limite de ${limit}.` : `${KIND_NOUN[kind]} tem ${size}; o limite é ${limit}.`
    return { ok: false, message }
  }
  return { ok: true, kind }
}

const number = (n: number, digits: number) => new Intl.NumberFormat('pt-BR', { maximumFractionDigits: digits }).format(n)

/** A size in binary units with a pt-BR decimal comma: "512 bytes", "1,5 MB", "4 GB". */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes == null || !Number.isFinite(bytes) || bytes < 0) return '—'
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${number(value, value >= 100 ? 0 : 1)} ${units[unit]}`
}

/** A duration as a clock: "0:42", "3:05", "1:02:03"; "—" when unknown. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0) return '—'
  const total = Math.round(seconds)
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  const two = (n: number) => String(n).padStart(2, '0')
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`
}

/** The percent shown, clamped to 0–100 and rounded down (100 % only when done). */
export function percent(value: number | null | undefined): number {
  if (value == null || !Number.isFinite(value)) return 0
  return Math.max(0, Math.min(100, Math.floor(value)))
}

/** The label of a state: 'Enviando', 'Processando (42 %)', 'Pronto', 'Erro'. */
export function stateLabel(asset: Pick<MediaAsset, 'state' | 'progress_percent'>): string {
  switch (asset.state) {
    case 'enviando':
      return 'Enviando'
    case 'processando':
      return `Processando (${percent(asset.progress_percent)} %)`
    case 'pronto':
      return 'Pronto'
    case 'erro':
      return 'Erro'
    default:
      return asset.state
  }
}

export const STATE_COLOUR: Record<MediaState, 'info' | 'warning' | 'success' | 'error'> = {
  enviando: 'info',
  processando: 'warning',
  pronto: 'success',
  erro: 'error',
}

export const STATE_CHOICES = [
  { id: 'enviando', name: 'Enviando' },
  { id: 'processando', name: 'Processando' },
  { id: 'pronto', name: 'Pronto' },
  { id: 'erro', name: 'Erro' },
]

export const KIND_CHOICES = ALL_KINDS.map((k) => ({ id: k, name: kindLabel(k) }))

/** The status view polls while the asset can still change by itself. */
export const POLL_MS = 2000

export function shouldPoll(state: MediaState | undefined): boolean {
  return state === 'enviando' || state === 'processando'
}

/** The refetch interval for an asset read: every 2 s while it changes, never once settled. */
export function pollInterval(asset: Pick<MediaAsset, 'state'> | undefined): number | false {
  return !asset || shouldPoll(asset.state) ? POLL_MS : false
}

/** The renditions of a progress map, smallest first ("360p" before "1080p"). */
export function renditionRows(progress: Record<string, number> | null | undefined): { name: string; percent: number }[] {
  const height = (name: string) => Number.parseInt(name, 10) || Number.MAX_SAFE_INTEGER
  return Object.entries(progress ?? {})
    .map(([name, value]) => ({ name, percent: percent(value) }))
    .sort((a, b) => height(a.name) - height(b.name) || a.name.localeCompare(b.name))
}

/**
 * The pt-BR message of a refused request's body: {"error":"…"},
 * {"error":{"message":"…"}}, {"message":"…"} or plain text; a fallback when
 * the body says nothing readable (an HTML error page, an empty body).
 */
export function serverMessage(body: string | null | undefined, fallback: string): string {
  const text = (body ?? '').trim()
  if (!text) return fallback
  try {
    const json = JSON.parse(text) as { error?: string | { message?: string }; message?: string }
    const msg = typeof json.error === 'string' ? json.error : (json.error?.message ?? json.message)
    return typeof msg === 'string' && msg.trim() ? msg.trim() : fallback
  } catch {
    return text.startsWith('<') || text.length > 500 ? fallback : text
  }
}

/** "1,2 MB de 3 GB" for the progress bar. */
export function progressText(sent: number, total: number): string {
  const p = total > 0 ? percent((sent / total) * 100) : 0
  return `${p} % · ${formatBytes(sent)} de ${formatBytes(total)}`
}

/** Items using an asset that the editor may not see (other people's, not shared): counted, never named. */
export function othersText(count: number): string {
  return count === 1 ? '1 item de outra pessoa' : `${count} itens de outras pessoas`
}
