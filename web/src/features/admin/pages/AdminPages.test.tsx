import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { createMemoryRouter } from 'react-router'
import { useAuth } from '@/lib/session/AuthProvider'
import { renderWithApp } from '@/test/renderWithApp'
import AdminHomePage from './AdminHomePage'
import AdminUsersPage from './AdminUsersPage'

function signedInAs(roles: string[]) {
  document.cookie = 'vc_csrf=t; Path=/'
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) =>
      url === '/api/auth/session'
        ? new Response(JSON.stringify({ user: { id: 'u1', email: 'ana@exemplo.com', provider: 'email', roles, created_at: '' } }), { status: 200 })
        : url === '/api/content/types'
          ? new Response(JSON.stringify([{ id: 'noticias', singular: 'Notícia', plural: 'Notícias', icon: 'newspaper', fields: [], list: { page_size: 20 } }]), { status: 200 })
          : new Response('{"error":{"code":"NOT_FOUND","message":"x"}}', { status: 404 }),
    ),
  )
}

/** As under RequireAuth: the page renders once the session check is over. */
function AfterSessionCheck({ children }: { children: ReactNode }) {
  const { loading, user } = useAuth()
  return loading || !user ? null : children
}

function renderAt(element: ReactNode) {
  const router = createMemoryRouter([{ path: '*', element: <AfterSessionCheck>{element}</AfterSessionCheck> }], { initialEntries: ['/admin'] })
  renderWithApp(router)
}

describe('admin pages', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    document.cookie = 'vc_csrf=; Path=/; Max-Age=0'
  })

  it('a super admin gets the backoffice links, every area is built', async () => {
    signedInAs(['user', 'super_admin'])
    renderAt(<AdminHomePage />)
    expect(await screen.findByRole('link', { name: 'Abrir backoffice' })).toHaveAttribute('href', '/backoffice/')
    const areas = screen.getByRole('list', { name: 'Áreas administrativas' })
    expect(within(areas).getByRole('link', { name: 'Gerenciar Usuários no backoffice' })).toHaveAttribute('href', '/backoffice/#/users')
    expect(within(areas).getByRole('link', { name: 'Gerenciar Biblioteca de mídia no backoffice' })).toHaveAttribute('href', '/backoffice/#/media')
    expect(within(areas).getByRole('link', { name: 'Gerenciar Candidaturas das vagas no backoffice' })).toHaveAttribute('href', '/backoffice/#/vagas-candidaturas')
    expect(within(areas).queryAllByText('Em breve')).toHaveLength(0)
    expect(screen.queryByText('Acesso restrito')).not.toBeInTheDocument()
  })

  it('an editor gets the backoffice and its content areas, without user management', async () => {
    signedInAs(['user', 'editor'])
    renderAt(<AdminHomePage />)
    expect(await screen.findByRole('link', { name: 'Abrir backoffice' })).toHaveAttribute('href', '/backoffice/')
    const areas = screen.getByRole('list', { name: 'Áreas administrativas' })
    expect(await within(areas).findByRole('link', { name: 'Gerenciar Notícias no backoffice' })).toHaveAttribute('href', '/backoffice/#/content/noticias')
    expect(within(areas).queryByRole('link', { name: 'Gerenciar Usuários no backoffice' })).not.toBeInTheDocument()
    expect(within(areas).queryByRole('link', { name: 'Gerenciar Moderação da comunidade no backoffice' })).not.toBeInTheDocument()
  })

  it('a moderator gets the moderation queue, without content or user management', async () => {
    signedInAs(['user', 'moderador'])
    renderAt(<AdminHomePage />)
    expect(await screen.findByRole('link', { name: 'Abrir backoffice' })).toHaveAttribute('href', '/backoffice/')
    const areas = screen.getByRole('list', { name: 'Áreas administrativas' })
    expect(within(areas).getByRole('link', { name: 'Gerenciar Moderação da comunidade no backoffice' })).toHaveAttribute('href', '/backoffice/#/moderation')
    expect(within(areas).queryByRole('link', { name: 'Gerenciar Notícias no backoffice' })).not.toBeInTheDocument()
    expect(within(areas).queryByRole('link', { name: 'Gerenciar Biblioteca de mídia no backoffice' })).not.toBeInTheDocument()
    expect(within(areas).queryByRole('link', { name: 'Gerenciar Usuários no backoffice' })).not.toBeInTheDocument()
  })

  it('anyone else is told the area is restricted and gets no backoffice link', async () => {
    signedInAs(['user', 'premium'])
    renderAt(<AdminHomePage />)
    expect(await screen.findByText('Acesso restrito')).toBeInTheDocument()
    expect(screen.getByRole('alert')).toHaveTextContent('Esta área é exclusiva para editores, revisores, moderadores e administradores do VetClube.')
    expect(screen.queryByRole('link', { name: 'Abrir backoffice' })).not.toBeInTheDocument()
  })

  it('/admin/usuarios sends a super admin to the backoffice user list, and nobody else', async () => {
    const go = vi.fn()
    signedInAs(['user', 'super_admin'])
    renderAt(<AdminUsersPage navigate={go} />)
    await vi.waitFor(() => expect(go).toHaveBeenCalledWith('/backoffice/#/users'))
    expect(screen.getByRole('link', { name: 'Abrir agora' })).toHaveAttribute('href', '/backoffice/#/users')
    expect(go).toHaveBeenCalledTimes(1)
  })

  it('/admin/usuarios refuses a regular user without leaving the app', async () => {
    const go = vi.fn()
    signedInAs(['user'])
    renderAt(<AdminUsersPage navigate={go} />)
    expect(await screen.findByText('Acesso restrito')).toBeInTheDocument()
    expect(go).not.toHaveBeenCalled()
  })
})
