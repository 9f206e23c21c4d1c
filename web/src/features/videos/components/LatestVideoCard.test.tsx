import { screen, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { installBrowserGaps, renderRoutes } from '@/test/renderRoutes'
import { failWith, fakeVideosApi, video } from '../test/fakeVideosApi'
import { LatestVideoCard } from './LatestVideoCard'

const render = () => renderRoutes([{ path: '/', element: <LatestVideoCard /> }], '/', { noRetry: true })
const card = () => screen.getByRole('region', { name: 'Conteúdo Exclusivo' })

beforeEach(() => installBrowserGaps())
afterEach(() => vi.unstubAllGlobals())

describe('LatestVideoCard', () => {
  it('shows the newest video with a link that opens it in the player', async () => {
    const api = fakeVideosApi({
      videos: [
        video('old', { title: 'Anestesia em felinos', published_at: '2026-01-01T00:00:00Z' }),
        video('new', { title: 'Sutura intradérmica', published_at: '2026-03-01T00:00:00Z', duration: '12min' }),
      ],
    })
    render()
    expect(await within(card()).findByText('Sutura intradérmica')).toBeInTheDocument()
    expect(within(card()).queryByText('Anestesia em felinos')).toBeNull()
    expect(within(card()).getByText('12min')).toBeInTheDocument()
    expect(within(card()).getByRole('link', { name: 'Assistir: Sutura intradérmica' })).toHaveAttribute('href', '/conteudos-exclusivos#new')
    expect(api.calls.filter((c) => c.path.startsWith('/api/videos')).map((c) => c.path)).toEqual(['/api/videos/ultimo'])
  })

  it('marks it Premium for a reader without access', async () => {
    fakeVideosApi({ videos: [video('v1', { title: 'Sutura intradérmica' })], access: false })
    render()
    expect(await within(card()).findByText('Premium')).toBeInTheDocument()
  })

  it("says 'Nenhum conteúdo exclusivo disponível no momento. Novos vídeos em breve.' when there is none", async () => {
    fakeVideosApi({ videos: [] })
    render()
    expect(await within(card()).findByText('Nenhum conteúdo exclusivo disponível no momento. Novos vídeos em breve.')).toBeInTheDocument()
    expect(within(card()).queryByRole('link')).toBeNull()
  })

  it("says 'Erro ao carregar conteúdo exclusivo. Tente novamente mais tarde.' when the read fails", async () => {
    fakeVideosApi({ videos: [video('v1')] }, { fail: (c) => c.path === '/api/videos/ultimo' && failWith(500) })
    render()
    expect(await within(card()).findByRole('alert')).toHaveTextContent('Erro ao carregar conteúdo exclusivo. Tente novamente mais tarde.')
  })
})
