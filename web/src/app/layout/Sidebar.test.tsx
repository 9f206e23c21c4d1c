import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen, within } from '@testing-library/react'
import { createMemoryRouter } from 'react-router'
import { renderWithApp } from '@/test/renderWithApp'
import { DesktopSidebar } from './Sidebar'
import { SidebarProvider } from './SidebarContext'

// jsdom has no matchMedia; the sidebar asks whether the screen is below 1024 px.
vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }))

function serve(routes: Record<string, unknown>) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const body = routes[url]
      return body === undefined ? new Response('{"error":{"code":"ENOTFOUND","message":"x"}}', { status: 404 }) : new Response(JSON.stringify(body), { status: 200 })
    }),
  )
}

function renderSidebar(path = '/cursos/7') {
  document.cookie = 'vc_csrf=t; Path=/'
  const router = createMemoryRouter(
    [
      {
        path: '*',
        element: (
          <SidebarProvider>
            <DesktopSidebar />
          </SidebarProvider>
        ),
      },
    ],
    { initialEntries: [path] },
  )
  renderWithApp(router)
}

const user = (roles: string[]) => ({ user: { id: 'u1', email: 'ana@exemplo.com', provider: 'email', roles, created_at: '' } })
const profile = { id: 'u1', first_name: 'Ana', last_name: 'Souza', email: 'ana@exemplo.com', avatar_url: null }

describe('sidebar', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: false, media: query, addEventListener() {}, removeEventListener() {} }))
    document.cookie = 'vc_csrf=; Path=/; Max-Age=0'
  })

  it('a regular user sees Plans but not Admin; the active entry follows the path', async () => {
    serve({ '/api/auth/session': user(['user']), '/api/profile': profile, '/api/subscription': { is_premium: false } })
    renderSidebar('/cursos/7')
    const nav = await screen.findByRole('navigation', { name: 'Menu principal' })
    expect(await within(nav).findByRole('link', { name: 'Planos' })).toBeInTheDocument()
    expect(within(nav).queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument()
    expect(within(nav).getByRole('link', { name: 'Cursos' })).toHaveAttribute('aria-current', 'page')
    expect(within(nav).getByRole('link', { name: 'Início' })).not.toHaveAttribute('aria-current')
    expect(await screen.findByText('Ana Souza')).toBeInTheDocument()
  })

  it('a premium super admin sees Admin and no Plans', async () => {
    serve({ '/api/auth/session': user(['user', 'premium', 'super_admin']), '/api/profile': profile, '/api/subscription': { is_premium: true } })
    renderSidebar('/admin/usuarios')
    const nav = await screen.findByRole('navigation', { name: 'Menu principal' })
    expect(await within(nav).findByRole('link', { name: 'Admin' })).toHaveAttribute('aria-current', 'page')
    await vi.waitFor(() => expect(within(nav).queryByRole('link', { name: 'Planos' })).not.toBeInTheDocument())
  })

  it('shows Carregando... while the profile loads and Usuário without a name', async () => {
    let answer: (r: Response) => void = () => {}
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url === '/api/auth/session') return new Response(JSON.stringify(user(['user'])), { status: 200 })
        if (url === '/api/profile') return new Promise<Response>((r) => (answer = r))
        return new Response('{}', { status: 404 })
      }),
    )
    renderSidebar('/')
    expect(await screen.findByText('Carregando...')).toBeInTheDocument()
    answer(new Response(JSON.stringify({ ...profile, first_name: '', last_name: '' }), { status: 200 }))
    expect(await screen.findByText('Usuário')).toBeInTheDocument()
  })
})
