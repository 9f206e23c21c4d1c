import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

// The player's browser tests play a real HLS package made by ffmpeg.

/**
 * Writes an HLS package under uploadsDir/<key> (e.g. a server's DATA_DIR/uploads):
 * 8 s of test pattern and tone in 360p and 720p, a master playlist and a
 * Portuguese WebVTT subtitle group; the key starts with media/<prefix>-.
 * Returns the master playlist's key.
 */
export function makeStream(uploadsDir: string, prefix: string): string {
  const key = `media/${prefix}-${Date.now().toString(36)}/${randomBytes(12).toString('hex')}/hls`
  const dir = join(uploadsDir, key)
  const renditions = [
    { name: '360p', width: 640, height: 360, bandwidth: 900_000, bitrate: '700k' },
    { name: '720p', width: 1280, height: 720, bandwidth: 2_000_000, bitrate: '1800k' },
  ]
  for (const r of renditions) {
    mkdirSync(join(dir, r.name), { recursive: true })
    // prettier-ignore
    execFileSync('ffmpeg', [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25',
      '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100',
      '-t', '8',
      '-vf', `scale=${r.width}:${r.height}`,
      '-c:v', 'libx264', '-preset', 'ultrafast', '-profile:v', 'main', '-pix_fmt', 'yuv420p', '-b:v', r.bitrate,
      // A keyframe every 2 s: every segment starts with one.
      '-g', '50', '-keyint_min', '50', '-sc_threshold', '0',
      '-c:a', 'aac', '-b:a', '64k', '-ac', '2',
      '-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod',
      '-hls_segment_filename', join(dir, r.name, 'seg_%03d.ts'),
      join(dir, r.name, 'index.m3u8'),
    ], { stdio: 'inherit', timeout: 120_000 })
  }
  mkdirSync(join(dir, 'subs', 'pt'), { recursive: true })
  writeFileSync(
    join(dir, 'subs', 'pt', 'seg_000.vtt'),
    'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n\n00:00:00.000 --> 00:00:04.000\nLegenda de teste: primeira parte\n\n00:00:04.000 --> 00:00:08.000\nLegenda de teste: segunda parte\n',
  )
  writeFileSync(
    join(dir, 'subs', 'pt', 'index.m3u8'),
    '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:8\n#EXT-X-MEDIA-SEQUENCE:0\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:8.000,\nseg_000.vtt\n#EXT-X-ENDLIST\n',
  )
  const variants = renditions.map(
    (r) =>
      `#EXT-X-STREAM-INF:BANDWIDTH=${r.bandwidth},RESOLUTION=${r.width}x${r.height},CODECS="avc1.4d401f,mp4a.40.2",SUBTITLES="subs"\n${r.name}/index.m3u8`,
  )
  writeFileSync(
    join(dir, 'master.m3u8'),
    [
      '#EXTM3U',
      '#EXT-X-VERSION:3',
      '#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Português",LANGUAGE="pt-BR",DEFAULT=NO,AUTOSELECT=YES,URI="subs/pt/index.m3u8"',
      ...variants,
      '',
    ].join('\n'),
  )
  return `${key}/master.m3u8`
}
