import { describe, expect, it } from 'vitest'
import { resumeAt, toVideo, vimeoId, youtubeId } from './embed'

describe('video URLs', () => {
  it('finds YouTube ids in every URL form', () => {
    for (const url of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
      'https://m.youtube.com/shorts/dQw4w9WgXcQ',
    ]) {
      expect(youtubeId(url)).toBe('dQw4w9WgXcQ')
    }
    expect(youtubeId('https://example.com/watch?v=dQw4w9WgXcQ')).toBeNull()
    expect(youtubeId('não é url')).toBeNull()
  })

  it('finds Vimeo ids', () => {
    expect(vimeoId('https://vimeo.com/76979871')).toBe('76979871')
    expect(vimeoId('https://player.vimeo.com/video/76979871?h=abc')).toBe('76979871')
    expect(vimeoId('https://vimeo.com/channels/staffpicks')).toBeNull()
  })

  it('builds privacy-friendly embeds and spots HLS playlists', () => {
    expect(toVideo('youtube', 'https://youtu.be/dQw4w9WgXcQ')?.embed_url).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ')
    expect(toVideo('vimeo', 'https://vimeo.com/76979871')?.embed_url).toBe('https://player.vimeo.com/video/76979871')
    expect(toVideo('upload', '/media/v1/master.m3u8?sig=1')).toMatchObject({ embed_url: null, hls: true })
    expect(toVideo('upload', '/media/v1.mp4')).toMatchObject({ hls: false })
    expect(toVideo('youtube', 'https://example.com/x')).toBeNull()
  })

  it('resumes from the saved position unless it is at the end', () => {
    expect(resumeAt(125.7, 600)).toBe(125)
    expect(resumeAt(598, 600)).toBe(0)
    expect(resumeAt(0, 600)).toBe(0)
    expect(resumeAt(40, 0)).toBe(40)
  })
})
