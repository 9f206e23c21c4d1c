import { describe, expect, it } from 'vitest'
import { pictureChoices } from './ImagePicker'
import type { MediaAsset } from './types'

const asset = (a: Partial<MediaAsset>): MediaAsset =>
  ({ id: 'x', kind: 'image', state: 'pronto', progress_percent: 100, original_name: 'x', mime_type: '', size_bytes: 1, created_at: '', updated_at: '', ...a }) as MediaAsset

describe('pictureChoices', () => {
  it("offers an image itself and a video's poster and numbered thumbnails, keeping the server's keys", () => {
    const choices = pictureChoices([
      asset({ kind: 'image', original_name: 'capa.png', pictures: [{ key: 'media/i/original.png', url: '/uploads/media/i/original.png', role: 'image' }] }),
      asset({
        kind: 'video',
        original_name: 'aula.mp4',
        pictures: [
          { key: 'media/v/t/img/poster.jpg', url: 'https://cdn.example.com/media/v/t/img/poster.jpg', role: 'poster' },
          { key: 'media/v/t/img/thumb-1.jpg', url: 'https://cdn.example.com/media/v/t/img/thumb-1.jpg', role: 'thumbnail' },
          { key: 'media/v/t/img/thumb-2.jpg', url: 'https://cdn.example.com/media/v/t/img/thumb-2.jpg', role: 'thumbnail' },
        ],
      }),
      asset({ kind: 'document', original_name: 'apostila.pdf', pictures: [] }),
      asset({ kind: 'video', original_name: 'sem-quadros.mp4' }),
    ])
    expect(choices.map((c) => [c.label, c.key])).toEqual([
      ['capa.png', 'media/i/original.png'],
      ['Capa de aula.mp4', 'media/v/t/img/poster.jpg'],
      ['Miniatura 1 de aula.mp4', 'media/v/t/img/thumb-1.jpg'],
      ['Miniatura 2 de aula.mp4', 'media/v/t/img/thumb-2.jpg'],
    ])
    expect(choices[2]!.url).toBe('https://cdn.example.com/media/v/t/img/thumb-1.jpg')
  })
})
