import { describe, expect, it, vi } from 'vitest'
import { render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { PageLoadErrorPage, RouteErrorPage } from './ErrorBoundary'

function Boom(): never {
  throw new Error('render failed')
}

describe('route error pages', () => {
  it('a render error shows its pt-BR texts and both buttons', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const router = createMemoryRouter([{ path: '/', element: <Boom />, errorElement: <RouteErrorPage /> }])
    render(<RouterProvider router={router} />)
    expect(await screen.findByText('Algo deu errado')).toBeInTheDocument()
    expect(screen.getByText('Ocorreu um erro inesperado. Por favor, tente recarregar a página.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Tentar Novamente' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Recarregar Página' })).toBeInTheDocument()
  })

  it('a 404 route response shows the not-found page', async () => {
    const router = createMemoryRouter([
      {
        path: '/',
        loader: () => {
          throw new Response('', { status: 404 })
        },
        element: <p>nunca</p>,
        hydrateFallbackElement: <p>carregando</p>,
        errorElement: <RouteErrorPage />,
      },
    ])
    render(<RouterProvider router={router} />)
    expect(await screen.findByRole('heading', { name: 'Página não encontrada' })).toBeInTheDocument()
  })

  it('a failed admin page load shows Erro ao Carregar Página', async () => {
    const router = createMemoryRouter([
      {
        path: '/admin',
        lazy: async () => {
          throw new TypeError('Failed to fetch dynamically imported module')
        },
        hydrateFallbackElement: <p>carregando</p>,
        errorElement: <PageLoadErrorPage />,
      },
    ], { initialEntries: ['/admin'] })
    render(<RouterProvider router={router} />)
    expect(await screen.findByText('Erro ao Carregar Página')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Tentar Novamente' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Recarregar Página' })).toBeInTheDocument()
  })
})
