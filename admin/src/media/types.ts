/** The kinds and states of a media asset (core/media). */
export type MediaKind = 'video' | 'image' | 'document'
export type MediaState = 'enviando' | 'processando' | 'pronto' | 'erro'

/** Where an asset is used: a content item referencing it. */
export interface MediaUse {
  type: string
  id: string
  title: string
  /** Another editor's item this reader may not see: id and title are empty. */
  hidden?: boolean
}

/** One asset as GET /api/admin/media/{id} answers it. */
export interface MediaAsset {
  id: string
  kind: MediaKind
  state: MediaState
  progress_percent: number
  /** Percent per rendition, e.g. {"360p":100,"720p":42}. */
  progress?: Record<string, number> | null
  error?: string | null
  original_name: string
  mime_type: string
  size_bytes: number
  duration_seconds?: number | null
  width?: number | null
  height?: number | null
  /** Where an image or a PDF is served. */
  url?: string | null
  hls_url?: string | null
  poster_url?: string | null
  thumbnail_urls?: string[] | null
  created_at: string
  updated_at: string
  uploaded_by?: string | null
  used_in?: MediaUse[] | null
  /** What an image field may hold from a ready asset: an image itself, a video's poster and thumbnails. */
  pictures?: MediaPicture[] | null
}

/** A picture of an asset; key is the storage key an image field keeps. */
export interface MediaPicture {
  key: string
  url: string
  role: 'image' | 'poster' | 'thumbnail'
}
