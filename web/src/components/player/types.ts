// What the player plays and reports: shared by course lessons, course intros
// and exclusive videos, whose APIs carry these shapes.

export type VideoSource = 'youtube' | 'vimeo' | 'upload' | 'stream'

export interface LessonVideo {
  source: VideoSource
  /** The watch URL (YouTube, Vimeo) or the file / HLS playlist to play. */
  url: string
  /** youtube-nocookie or player.vimeo.com embed; null for upload and stream. */
  embed_url: string | null
  hls: boolean
}

/** A stretch of the media actually played: [start, end] in seconds. */
export type Span = [number, number]
