import { afterEach, describe, expect, it, vi } from 'vitest'
import { screen } from '@testing-library/react'
import { createMemoryRouter } from 'react-router'
import { renderWithApp } from '@/test/renderWithApp'
import { RequireAuth, STANDALONE_AUTH_DELAY_MS } from './Guard'

function setup(path: string) {
  const router = createMemoryRouter(
    [
      { element: <RequireAuth />, children: [{ path: '/', element: <p>painel</p> }, { path: '/cursos', element: <p>cursos</p> }] },
      { path: '/landing', element: <p>landing</p> },
      { path: '/login', element: <p>login</p> },
    ],
    { initialEntries: [path] },
  )
  renderWithApp(router)
  return router
}

describe('guard', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    document.cookie = 'vc_csrf=; Path=/; Max-Age=0'
  })

  it('sends visitors from / to /landing and from other routes to /login with the path', async () => {
    let router = setup('/')
    expect(await screen.findByText('landing')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/landing')
    router.dispose()

    router = setup('/cursos?nivel=basico')
    expect(await screen.findByText('login')).toBeInTheDocument()
    expect(router.state.location.pathname + router.state.location.search).toBe('/login?redirect=%2Fcursos%3Fnivel%3Dbasico')
  })

  it('shows the loader while the session check runs, then the page', async () => {
    document.cookie = 'vc_csrf=abc; Path=/'
    let answer: (r: Response) => void = () => {}
    vi.stubGlobal('fetch', vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))))
    setup('/cursos')
    expect(screen.getByText('Verificando autenticação...')).toBeInTheDocument()
    answer(new Response(JSON.stringify({ user: { id: 'u1', email: 'a@b.c', provider: 'email', roles: ['user'], created_at: '' } }), { status: 200 }))
    expect(await screen.findByText('cursos')).toBeInTheDocument()
  })

  it('in the installed app waits 200 ms more before showing the page', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('standalone'), media: query, addEventListener() {}, removeEventListener() {} }))
    document.cookie = 'vc_csrf=abc; Path=/'
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ user: { id: 'u1', email: 'a@b.c', provider: 'email', roles: ['user'], created_at: '' } }), { status: 200 })))
    const started = performance.now()
    setup('/cursos')
    expect(screen.getByText('Verificando autenticação...')).toBeInTheDocument()
    expect(await screen.findByText('cursos', {}, { timeout: 2000 })).toBeInTheDocument()
    expect(performance.now() - started).toBeGreaterThanOrEqual(STANDALONE_AUTH_DELAY_MS)
  })
})
