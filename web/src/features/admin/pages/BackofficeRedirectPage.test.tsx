import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { createMemoryRouter } from 'react-router'
import { useAuth } from '@/lib/session/AuthProvider'
import { renderWithApp } from '@/test/renderWithApp'
import BackofficeRedirectPage from './BackofficeRedirectPage'

function signedInAs(roles: string[]) {
  document.cookie = 'vc_csrf=t; Path=/'
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url === '/api/auth/session'
        ? new Response(JSON.stringify({ user: { id: 'u1', email: 'ana@exemplo.com', provider: 'email', roles, created_at: '' } }), { status: 200 })
        : new Response('{"error":{"code":"NOT_FOUND","message":"x"}}', { status: 404 }),
    ),
  )
}

function AfterSessionCheck({ children }: { children: ReactNode }) {
  const { loading, user } = useAuth()
  return loading || !user ? null : children
}

function renderAt(path: string, element: ReactNode) {
  const router = createMemoryRouter([{ path: '/admin/gerenciador/*', element: <AfterSessionCheck>{element}</AfterSessionCheck> }], { initialEntries: [path] })
  renderWithApp(router)
}

describe('the /admin/gerenciador screens in the backoffice', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    document.cookie = 'vc_csrf=; Path=/; Max-Age=0'
  })

  it('send an editor to the fixed backoffice page (the media library)', async () => {
    signedInAs(['user', 'editor'])
    const navigate = vi.fn()
    renderAt('/admin/gerenciador/conteudos-exclusivos/biblioteca', <BackofficeRedirectPage to="/backoffice/#/media" navigate={navigate} />)
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/backoffice/#/media'))
    expect(screen.getByRole('link', { name: 'Abrir agora' })).toHaveAttribute('href', '/backoffice/#/media')
  })

  it('keep a moderator out', async () => {
    signedInAs(['user', 'moderador'])
    const navigate = vi.fn()
    renderAt('/admin/gerenciador/videos', <BackofficeRedirectPage to="/backoffice/#/content/videos" navigate={navigate} />)
    expect(await screen.findByText('Acesso restrito')).toBeInTheDocument()
    expect(navigate).not.toHaveBeenCalled()
  })
})
