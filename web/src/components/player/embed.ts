import type { LessonVideo, VideoSource } from './types'

const YOUTUBE_ID = /^[A-Za-z0-9_-]{6,20}$/

/** The YouTube video id of a watch, short, embed or shorts URL; null when there is none. */
export function youtubeId(raw: string): string | null {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return null
  }
  const host = u.hostname.replace(/^www\.|^m\./, '')
  let id: string | null = null
  if (host === 'youtu.be') id = u.pathname.slice(1).split('/')[0] ?? null
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    if (u.pathname === '/watch') id = u.searchParams.get('v')
    else id = u.pathname.match(/^\/(?:embed|shorts|live|v)\/([^/]+)/)?.[1] ?? null
  }
  return id && YOUTUBE_ID.test(id) ? id : null
}

/** The Vimeo video id of a vimeo.com or player.vimeo.com URL; null when there is none. */
export function vimeoId(raw: string): string | null {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    return null
  }
  const host = u.hostname.replace(/^www\./, '')
  if (host !== 'vimeo.com' && host !== 'player.vimeo.com') return null
  return u.pathname.match(/(?:^|\/)(\d{5,})(?:\/|$)/)?.[1] ?? null
}

function isHls(url: string): boolean {
  try {
    return new URL(url, 'http://x').pathname.toLowerCase().endsWith('.m3u8')
  } catch {
    return false
  }
}

/**
 * A playable video from a source and a URL (the course's intro video carries
 * only these two): embeds for YouTube (youtube-nocookie) and Vimeo, the file or
 * HLS playlist otherwise. Null when the URL cannot be played.
 */
export function toVideo(source: VideoSource, url: string): LessonVideo | null {
  if (source === 'youtube') {
    const id = youtubeId(url)
    return id ? { source, url, embed_url: `https://www.youtube-nocookie.com/embed/${id}`, hls: false } : null
  }
  if (source === 'vimeo') {
    const id = vimeoId(url)
    return id ? { source, url, embed_url: `https://player.vimeo.com/video/${id}`, hls: false } : null
  }
  return url ? { source, url, embed_url: null, hls: isHls(url) } : null
}

/** Where to start: the saved position, unless it is (nearly) the end, where the video starts over. */
export function resumeAt(position: number, duration: number): number {
  if (!(position > 0)) return 0
  if (duration > 0 && position >= duration - 5) return 0
  return Math.floor(position)
}
