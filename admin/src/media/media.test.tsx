import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { AdminContext } from 'react-admin'
import { QueryClient } from '@tanstack/react-query'
import { dataProvider } from '../providers/dataProvider'
import { i18nProvider } from '../providers/i18nProvider'
import { clearCookies, scriptFetch, setCookie } from '../providers/testServer'
import { MediaDetails, MediaStatus } from './MediaStatus'
import { MediaUploader } from './MediaUploader'
import type { MediaAsset } from './types'

const asset = (over: Partial<MediaAsset> = {}): MediaAsset => ({
  id: '0b7c2a64-7a1d-4a43-9a0e-6f1f7c2f8e11',
  kind: 'video',
  state: 'processando',
  progress_percent: 42,
  progress: { '720p': 12, '360p': 100 },
  error: '',
  original_name: 'aula-sutura.mp4',
  mime_type: 'video/mp4',
  size_bytes: 3 * 1024 * 1024,
  duration_seconds: 185,
  width: 1280,
  height: 720,
  hls_url: '',
  poster_url: '',
  thumbnail_urls: [],
  created_at: '2026-11-25T10:00:00Z',
  updated_at: '2026-11-25T10:01:00Z',
  used_in: [],
  ...over,
})

;(globalThis as any).IS_REACT_ACT_ENVIRONMENT = true
let root: Root | null = null
beforeEach(() => {
  clearCookies()
  setCookie('vc_csrf=csrf1; path=/')
})
afterEach(() => {
  act(() => root?.unmount())
  root = null
  document.body.innerHTML = ''
  vi.unstubAllGlobals()
})

async function render(node: ReactNode) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const container = document.createElement('div')
  document.body.appendChild(container)
  root = createRoot(container)
  await act(async () => {
    root!.render(
      <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} queryClient={queryClient}>
        {node}
      </AdminContext>,
    )
  })
  return container
}

const text = () => document.body.textContent ?? ''
const button = (label: string) => Array.from(document.body.querySelectorAll('button')).find((b) => b.textContent === label)

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 10))
    })
  }
  expect(check()).toBe(true)
}

describe('the status of one asset', () => {
  it('shows processing with the percent and each rendition', async () => {
    const container = await render(<MediaDetails asset={asset()} />)
    expect(text()).toContain('Processando (42 %)')
    const bar = container.querySelector('[role="progressbar"]')!
    expect(bar.getAttribute('aria-valuenow')).toBe('42')
    const items = Array.from(container.querySelectorAll('li')).map((li) => li.textContent)
    expect(items).toEqual(['360p: pronta', '720p: 12 %'])
  })

  it('shows a ready video with poster, duration and renditions', async () => {
    const container = await render(
      <MediaDetails asset={asset({ state: 'pronto', progress_percent: 100, progress: { '360p': 100, '720p': 100 }, poster_url: '/uploads/media/x/img/poster.jpg' })} />,
    )
    expect(text()).toContain('Pronto')
    expect(text()).toContain('Duração: 3:05')
    expect(text()).toContain('Versões: 360p, 720p')
    expect(container.querySelector('img')?.getAttribute('src')).toBe('/uploads/media/x/img/poster.jpg')
  })

  it('shows the reason of an error and retries with POST and the CSRF header', async () => {
    const calls = scriptFetch((call) => (call.method === 'POST' && call.path.endsWith('/retry') ? { status: 202, json: {} } : undefined))
    const onRetried = vi.fn()
    await render(<MediaDetails asset={asset({ state: 'erro', error: 'O arquivo não pôde ser lido como vídeo.' })} onRetried={onRetried} />)
    expect(text()).toContain('Erro')
    expect(text()).toContain('O arquivo não pôde ser lido como vídeo.')
    await act(async () => button('Tentar novamente')!.click())
    await until(() => onRetried.mock.calls.length === 1)
    expect(calls[0].path).toBe('/api/admin/media/0b7c2a64-7a1d-4a43-9a0e-6f1f7c2f8e11/retry')
    expect(calls[0].headers.get('X-CSRF-Token')).toBe('csrf1')
  })

  it('cancels a processing video with POST /cancel once staff confirm', async () => {
    const calls = scriptFetch((call) => (call.method === 'POST' && call.path.endsWith('/cancel') ? { status: 200, json: {} } : undefined))
    const onRetried = vi.fn()
    const confirm = vi.spyOn(window, 'confirm').mockReturnValue(true)
    await render(<MediaDetails asset={asset({ state: 'processando' })} onRetried={onRetried} />)
    await act(async () => button('Cancelar processamento')!.click())
    await until(() => onRetried.mock.calls.length === 1)
    expect(confirm).toHaveBeenCalledOnce()
    expect(calls[0].path).toBe('/api/admin/media/0b7c2a64-7a1d-4a43-9a0e-6f1f7c2f8e11/cancel')
    expect(calls[0].headers.get('X-CSRF-Token')).toBe('csrf1')
    confirm.mockRestore()
  })

  it("shows the server's pt-BR refusal of a retry", async () => {
    scriptFetch(() => ({ status: 409, json: { error: 'Só um arquivo com erro pode ser processado de novo.' } }))
    await render(<MediaDetails asset={asset({ state: 'erro', error: 'Falhou.' })} />)
    await act(async () => button('Tentar novamente')!.click())
    await until(() => text().includes('Só um arquivo com erro pode ser processado de novo.'))
  })

  it('reads the asset again while it is processed, and stops once it is ready', async () => {
    let reads = 0
    scriptFetch((call) => {
      if (call.method !== 'GET' || !call.path.startsWith('/api/admin/media/')) return undefined
      reads++
      return { status: 200, json: reads < 2 ? asset() : asset({ state: 'pronto', progress_percent: 100 }) }
    })
    await render(<MediaStatus id="0b7c2a64-7a1d-4a43-9a0e-6f1f7c2f8e11" />)
    await until(() => text().includes('Processando (42 %)'))
    // The next read comes by itself after the 2 s interval.
    for (let i = 0; i < 60 && !text().includes('Pronto'); i++) {
      await act(async () => {
        await new Promise((r) => setTimeout(r, 100))
      })
    }
    expect(text()).toContain('Pronto')
    const settled = reads
    await act(async () => {
      await new Promise((r) => setTimeout(r, 2500))
    })
    expect(reads).toBe(settled)
  }, 15_000)
})

describe('the uploader', () => {
  it('refuses a file of the wrong kind before sending anything', async () => {
    const calls = scriptFetch(() => undefined)
    const container = await render(<MediaUploader kinds={['video']} label="Enviar vídeo" />)
    const input = container.querySelector('input[type="file"]') as HTMLInputElement
    expect(input.getAttribute('accept')).toContain('.mp4')
    const file = new File(['%PDF-1.7'], 'apostila.pdf', { type: 'application/pdf' })
    await act(async () => {
      Object.defineProperty(input, 'files', { value: [file], configurable: true })
      input.dispatchEvent(new Event('change', { bubbles: true }))
    })
    expect(text()).toContain('Tipo de arquivo não aceito: envie vídeos (mp4, mov, webm ou mkv).')
    expect(container.querySelector('[role="progressbar"]')).toBeNull()
    expect(calls).toHaveLength(0)
  })
})
