import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { dismissToast } from '@/components/ui/toast'
import PublicProfilePage from '@/features/profile/pages/PublicProfilePage'
import { author, fakeCommunityApi, installBrowserGaps, post, renderRoutes, type Call } from '@/features/comunidade/test/fakeCommunityApi'

const ana = {
  id: 'u1',
  first_name: 'Ana',
  last_name: 'Souza',
  avatar_url: null,
  verified: false,
  specialties: [],
  connections_count: 3,
  has_crmv: false,
  title: 'Médica-veterinária',
  biography: '',
  crmv: null,
  is_not_veterinarian: false,
  created_at: new Date().toISOString(),
}

// The profile's own endpoints: the profile, specialties, and the connection controls.
function profileEndpoints(c: Call) {
  if (c.path === '/api/profiles/u1') return { status: 200, body: ana }
  if (c.path === '/api/specialties') return { status: 200, body: { specialties: [] } }
  if (c.path === '/api/connections/status/u1') return { status: 200, body: { status: 'none', id: null } }
  if (c.path === '/api/connections/mutual/u1') return { status: 200, body: { mutual: [], count: 0 } }
  return undefined
}

function renderProfile() {
  return renderRoutes(
    [
      { path: '/profile/:userId', element: <PublicProfilePage /> },
      { path: '/community', element: <p>Feed</p> },
    ],
    '/profile/u1',
  )
}

beforeEach(installBrowserGaps)
afterEach(() => {
  vi.unstubAllGlobals()
  dismissToast()
})

describe('public profile: community parts', () => {
  it("lists the person's five latest posts, each linking to its comments", async () => {
    const posts = Array.from({ length: 7 }, (_, i) => post(`p${i + 1}`, { author: author('u1', 'Ana'), content: `Texto ${i + 1}`, comments_count: i }))
    const api = fakeCommunityApi({ posts: [...posts, post('x', { author: author('u9', 'Outra') })] }, { other: profileEndpoints })
    renderProfile()
    const list = await screen.findByRole('list', { name: 'Publicações recentes' })
    expect(within(list).getAllByRole('listitem')).toHaveLength(5)
    expect(within(list).getAllByRole('link', { name: 'Ver publicação' })[0]).toHaveAttribute('href', '/community?post=p1')
    expect(within(list).getByText('Texto 2')).toBeInTheDocument()
    expect(within(list).getByText('1 comentário')).toBeInTheDocument()
    const feedCall = api.calls.find((c) => c.path === '/api/community/feed')!
    expect(feedCall.search.get('author')).toBe('u1')
    expect(feedCall.search.get('limit')).toBe('5')
  })

  it("says so when the person hasn't posted", async () => {
    fakeCommunityApi({ posts: [] }, { other: profileEndpoints })
    renderProfile()
    expect(await screen.findByText('Nenhuma publicação ainda.')).toBeInTheDocument()
  })

  it("blocks the person after confirming, and can undo it", async () => {
    const api = fakeCommunityApi({ posts: [] }, { other: profileEndpoints })
    renderProfile()
    await userEvent.click(await screen.findByRole('button', { name: 'Bloquear' }))
    const dialog = screen.getByRole('dialog', { name: 'Bloquear usuário' })
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }))
    expect(api.calls.some((c) => c.method === 'POST' && c.path === '/api/blocks')).toBe(false)

    await userEvent.click(screen.getByRole('button', { name: 'Bloquear' }))
    await userEvent.click(within(screen.getByRole('dialog', { name: 'Bloquear usuário' })).getByRole('button', { name: 'Bloquear' }))
    expect(await screen.findByText('Usuário bloqueado')).toBeInTheDocument()
    expect(api.calls.find((c) => c.method === 'POST' && c.path === '/api/blocks')!.body).toEqual({ user_id: 'u1' })
    expect(screen.getByText('Você bloqueou Ana Souza.')).toBeInTheDocument()

    await userEvent.click(screen.getByRole('button', { name: 'Desbloquear' }))
    expect(await screen.findByText('Usuário desbloqueado')).toBeInTheDocument()
    await waitFor(() => expect(api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/blocks/u1')).toBe(true))
  })
  it('offers Desbloquear for someone blocked on an earlier visit', async () => {
    const api = fakeCommunityApi({ posts: [], blocked: [{ id: 'u1', first_name: 'Ana', last_name: 'Souza' }] }, { other: profileEndpoints })
    renderProfile()
    expect(await screen.findByText('Você bloqueou Ana Souza.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Desbloquear' }))
    expect(await screen.findByRole('button', { name: 'Bloquear' })).toBeInTheDocument()
    expect(api.state.blocked).toEqual([])
  })
})
