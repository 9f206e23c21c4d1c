import { describe, expect, it } from 'vitest'
import {
  MEDIA_LIMITS,
  acceptFor,
  extensionOf,
  formatBytes,
  formatDuration,
  kindOfName,
  othersText,
  percent,
  pollInterval,
  precheck,
  progressText,
  renditionRows,
  serverMessage,
  shouldPoll,
  stateLabel,
} from './format'
import { mediaListURL, totalOf } from './mediaData'
import { shouldRetry, statusOf, uploadErrorMessage } from './upload'

const GiB = 1024 ** 3
const MiB = 1024 ** 2

describe('the limits checked before an upload', () => {
  it('match the server: videos 4 GiB, images 20 MiB, PDF 100 MiB', () => {
    expect(MEDIA_LIMITS.video.maxBytes).toBe(4 * GiB)
    expect(MEDIA_LIMITS.image.maxBytes).toBe(20 * MiB)
    expect(MEDIA_LIMITS.document.maxBytes).toBe(100 * MiB)
  })

  it('tell the kind from the extension, whatever its case', () => {
    expect(extensionOf('Aula 1.final.MKV')).toBe('mkv')
    expect(extensionOf('sem-extensao')).toBe('')
    expect(kindOfName('a.MOV')).toBe('video')
    expect(kindOfName('a.webm')).toBe('video')
    expect(kindOfName('capa.JPEG')).toBe('image')
    expect(kindOfName('apostila.pdf')).toBe('document')
    expect(kindOfName('planilha.xlsx')).toBeUndefined()
    expect(kindOfName('video.avi')).toBeUndefined()
  })

  it('accept a file at the limit and refuse one byte more, in pt-BR', () => {
    expect(precheck({ name: 'aula.mp4', size: 4 * GiB })).toEqual({ ok: true, kind: 'video' })
    expect(precheck({ name: 'aula.mp4', size: 4 * GiB + 1 })).toEqual({ ok: false, message: 'O vídeo passa do limite de 4 GB.' })
    expect(precheck({ name: 'aula.mp4', size: 5.5 * GiB })).toEqual({ ok: false, message: 'O vídeo tem 5,5 GB; o limite é 4 GB.' })
    expect(precheck({ name: 'capa.png', size: 20 * MiB })).toEqual({ ok: true, kind: 'image' })
    expect(precheck({ name: 'capa.png', size: 21 * MiB })).toEqual({ ok: false, message: 'A imagem tem 21 MB; o limite é 20 MB.' })
    expect(precheck({ name: 'apostila.pdf', size: 101 * MiB })).toEqual({ ok: false, message: 'O PDF tem 101 MB; o limite é 100 MB.' })
    expect(precheck({ name: 'aula.mp4', size: 0 })).toEqual({ ok: false, message: 'O arquivo está vazio.' })
  })

  it('refuse kinds the place does not take, naming what it takes', () => {
    expect(precheck({ name: 'capa.png', size: 10 }, ['video'])).toEqual({
      ok: false,
      message: 'Tipo de arquivo não aceito: envie vídeos (mp4, mov, webm ou mkv).',
    })
    expect(precheck({ name: 'x.avi', size: 10 })).toEqual({
      ok: false,
      message: 'Tipo de arquivo não aceito: envie vídeos (mp4, mov, webm ou mkv), imagens (jpg, jpeg, png, webp ou gif) ou PDF.',
    })
  })

  it('offer the same types in the file picker', () => {
    expect(acceptFor(['video'])).toBe('.mp4,.mov,.webm,.mkv,video/mp4,video/quicktime,video/webm,video/x-matroska')
    expect(acceptFor(['document'])).toBe('.pdf,application/pdf')
  })
})

describe('pt-BR formatting', () => {
  it('sizes in binary units with a decimal comma', () => {
    expect(formatBytes(0)).toBe('0 bytes')
    expect(formatBytes(1)).toBe('1 byte')
    expect(formatBytes(1023)).toBe('1023 bytes')
    expect(formatBytes(1536)).toBe('1,5 KB')
    expect(formatBytes(20 * MiB)).toBe('20 MB')
    expect(formatBytes(123.4 * MiB)).toBe('123 MB')
    expect(formatBytes(1.25 * GiB)).toBe('1,3 GB')
    expect(formatBytes(undefined)).toBe('—')
    expect(formatBytes(-1)).toBe('—')
  })

  it('durations as a clock', () => {
    expect(formatDuration(0)).toBe('0:00')
    expect(formatDuration(42.4)).toBe('0:42')
    expect(formatDuration(185)).toBe('3:05')
    expect(formatDuration(3723)).toBe('1:02:03')
    expect(formatDuration(null)).toBe('—')
    expect(formatDuration(Number.NaN)).toBe('—')
  })

  it('state labels with the processing percent', () => {
    expect(stateLabel({ state: 'enviando', progress_percent: 0 })).toBe('Enviando')
    expect(stateLabel({ state: 'processando', progress_percent: 42.9 })).toBe('Processando (42 %)')
    expect(stateLabel({ state: 'processando', progress_percent: 140 })).toBe('Processando (100 %)')
    expect(stateLabel({ state: 'pronto', progress_percent: 100 })).toBe('Pronto')
    expect(stateLabel({ state: 'erro', progress_percent: 10 })).toBe('Erro')
    expect(percent(-3)).toBe(0)
  })

  it('upload progress with percent and bytes', () => {
    expect(progressText(512 * 1024, 2 * MiB)).toBe('25 % · 512 KB de 2 MB')
    expect(progressText(0, 0)).toBe('0 % · 0 bytes de 0 bytes')
  })

  it('renditions smallest first', () => {
    expect(renditionRows({ '1080p': 0, '360p': 100, '720p': 42.5 })).toEqual([
      { name: '360p', percent: 100 },
      { name: '720p', percent: 42 },
      { name: '1080p', percent: 0 },
    ])
    expect(renditionRows(null)).toEqual([])
  })
})

describe('status polling', () => {
  it('polls every 2 s while the asset is sent or processed, and stops once settled', () => {
    expect(shouldPoll('enviando')).toBe(true)
    expect(shouldPoll('processando')).toBe(true)
    expect(shouldPoll('pronto')).toBe(false)
    expect(shouldPoll('erro')).toBe(false)
    expect(pollInterval({ state: 'processando' })).toBe(2000)
    expect(pollInterval({ state: 'pronto' })).toBe(false)
    expect(pollInterval({ state: 'erro' })).toBe(false)
    // Nothing read yet: keep trying.
    expect(pollInterval(undefined)).toBe(2000)
  })
})

describe("the server's refusals", () => {
  const refused = (status: number, body: string) => ({ originalResponse: { getStatus: () => status, getBody: () => body } })

  it('are shown as the server wrote them, plain text or JSON', () => {
    expect(serverMessage('O vídeo excede 4 GB.\n', 'x')).toBe('O vídeo excede 4 GB.')
    expect(serverMessage('{"error":"Este arquivo está em uso em: Aula 1."}', 'x')).toBe('Este arquivo está em uso em: Aula 1.')
    expect(serverMessage('{"error":{"message":"Sem permissão."}}', 'x')).toBe('Sem permissão.')
    expect(serverMessage('<html>502 Bad Gateway</html>', 'falhou')).toBe('falhou')
    expect(serverMessage('', 'falhou')).toBe('falhou')
    expect(uploadErrorMessage(refused(415, 'O arquivo não é um vídeo válido (mp4, mov, webm ou mkv).\n'))).toBe(
      'O arquivo não é um vídeo válido (mp4, mov, webm ou mkv).',
    )
    expect(uploadErrorMessage(refused(413, ''))).toBe('O arquivo é maior que o limite aceito.')
    expect(uploadErrorMessage({})).toContain('A conexão com o servidor caiu')
  })

  it('are final, while network failures, 5xx, 401 (after a refresh), 409 and 423 are tried again', () => {
    expect(statusOf({})).toBe(0)
    expect(statusOf(refused(503, ''))).toBe(503)
    for (const s of [0, 500, 502, 503, 401, 409, 423]) expect(shouldRetry(s)).toBe(true)
    for (const s of [400, 403, 404, 410, 413, 415, 422]) expect(shouldRetry(s)).toBe(false)
  })
})

describe('the library list', () => {
  it('asks with react-admin parameters and plain ones', () => {
    const url = decodeURIComponent(
      mediaListURL({ pagination: { page: 2, perPage: 25 }, sort: { field: 'created_at', order: 'DESC' }, filter: { q: ' aula ', kind: 'video', state: '' } }),
    )
    expect(url.startsWith('/api/admin/media?')).toBe(true)
    expect(url).toContain('range=[25,49]')
    expect(url).toContain('sort=["created_at","DESC"]')
    expect(url).toContain('filter={"q":"aula","kind":"video"}')
    expect(url).toContain('&q=aula&kind=video&page=2&per_page=25')
    expect(url).not.toContain('state=')
  })

  it('reads the total from Content-Range or X-Total-Count', () => {
    expect(totalOf(new Headers({ 'Content-Range': 'media 0-24/319' }), 0)).toBe(319)
    expect(totalOf(new Headers({ 'X-Total-Count': '12' }), 0)).toBe(12)
    expect(totalOf(new Headers(), 3)).toBe(3)
  })
})

describe('othersText', () => {
  it('counts the items of other people in pt-BR, singular and plural', () => {
    expect(othersText(1)).toBe('1 item de outra pessoa')
    expect(othersText(3)).toBe('3 itens de outras pessoas')
  })
})
