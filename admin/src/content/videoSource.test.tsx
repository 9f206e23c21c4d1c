import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { AdminContext, Form } from 'react-admin'
import { QueryClient } from '@tanstack/react-query'
import { dataProvider } from '../providers/dataProvider'
import { i18nProvider } from '../providers/i18nProvider'
import { clearCookies, scriptFetch, setCookie } from '../providers/testServer'
import { ContentInputs } from './ContentEdit'
import { shownForSource } from './fields'
import type { ContentType } from './types'

const video: ContentType = {
  id: 'video',
  singular: 'Vídeo',
  plural: 'Vídeos',
  icon: 'clapperboard',
  workflow: 'editorial',
  list: { default_sort: { field: 'published_at', desc: true }, page_size: 20 },
  fields: [
    { name: 'duration', label: 'Duração', kind: 'text', pattern: '([0-9]{1,2}:[0-5][0-9]:[0-5][0-9]|[0-9]{1,3}:[0-5][0-9])' },
    {
      name: 'video_source',
      label: 'Origem do vídeo',
      kind: 'select',
      options: [
        { value: 'youtube', label: 'YouTube' },
        { value: 'upload', label: 'Vídeo enviado (biblioteca de mídia)' },
      ],
    },
    { name: 'youtube_url', label: 'Endereço no YouTube', kind: 'url' },
    { name: 'vimeo_url', label: 'Endereço no Vimeo', kind: 'url' },
    { name: 'stream_url', label: 'Endereço da transmissão (HLS)', kind: 'url' },
    { name: 'video_asset', label: 'Vídeo enviado', kind: 'video' },
  ],
}

const ASSET = '0b7c2a64-7a1d-4a43-9a0e-6f1f7c2f8e11'

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

async function renderForm(fields: Record<string, unknown>) {
  scriptFetch((call) =>
    call.method === 'GET' && call.path === `/api/admin/media/${ASSET}`
      ? {
          status: 200,
          json: {
            id: ASSET, kind: 'video', state: 'pronto', progress_percent: 100, original_name: 'aula.mp4', mime_type: 'video/mp4',
            size_bytes: 1000, duration_seconds: 185, created_at: '2026-11-25T10:00:00Z', updated_at: '2026-11-25T10:01:00Z',
          },
        }
      : undefined,
  )
  const container = document.createElement('div')
  document.body.appendChild(container)
  root = createRoot(container)
  await act(async () => {
    root!.render(
      <AdminContext dataProvider={dataProvider} i18nProvider={i18nProvider} queryClient={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <Form record={{ id: 'v1', title: 'Aula', fields }}>
          <ContentInputs type={video} />
        </Form>
      </AdminContext>,
    )
  })
  return container
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 10))
    })
  }
  expect(check()).toBe(true)
}

const labels = () => document.body.textContent ?? ''

describe('the video source decides the fields', () => {
  it('shows only the chosen source’s own fields', () => {
    expect(shownForSource('youtube_url', 'youtube')).toBe(true)
    expect(shownForSource('vimeo_url', 'youtube')).toBe(false)
    expect(shownForSource('video_asset', 'youtube')).toBe(false)
    expect(shownForSource('video_asset', 'upload')).toBe(true)
    expect(shownForSource('stream_url', '')).toBe(false)
    expect(shownForSource('duration', '')).toBe(true)
  })

  it('a YouTube video shows the YouTube address and a typed duration, nothing of the other sources', async () => {
    const container = await renderForm({ video_source: 'youtube', youtube_url: 'https://youtu.be/x', duration: '12:30' })
    expect(labels()).toContain('Endereço no YouTube')
    expect(labels()).not.toContain('Endereço no Vimeo')
    expect(labels()).not.toContain('Endereço da transmissão')
    expect(labels()).not.toContain('Vídeo enviado')
    const duration = container.querySelector<HTMLInputElement>('input[name="fields.duration"]')!
    expect(duration.readOnly).toBe(false)
  })

  it("an uploaded video's duration comes from the media library, read-only", async () => {
    const container = await renderForm({ video_source: 'upload', video_asset: ASSET, duration: '' })
    expect(labels()).not.toContain('Endereço no YouTube')
    await until(() => container.querySelector<HTMLInputElement>('#asset-duration-duration')?.value === '3:05')
    expect(container.querySelector<HTMLInputElement>('#asset-duration-duration')!.readOnly).toBe(true)
    expect(labels()).toContain('Preenchida com a duração do vídeo enviado.')
  })
})
