import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render, screen } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { useDashboardCards } from './api'
import { DashboardCards } from './DashboardCards'

// The cards' query status, beside them: both observe the same query and render
// its answer in the same commit, so once this reads 'success' or 'error' the
// cards show (or leave out) what the server said.
function QueryStatus() {
  return <output>{useDashboardCards().status}</output>
}

function renderCards() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } })
  const router = createMemoryRouter([
    {
      path: '/',
      element: (
        <>
          <div data-testid="cards">
            <DashboardCards />
          </div>
          <QueryStatus />
        </>
      ),
    },
  ])
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
}

function answer(status: number, body: unknown) {
  const fetch = vi.fn().mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }))
  vi.stubGlobal('fetch', fetch)
  return fetch
}

afterEach(() => vi.unstubAllGlobals())

describe('DashboardCards', () => {
  it('shows each card with its title, text and link', async () => {
    answer(200, {
      cards: [
        { plugin: 'calculadora-doses', title: 'Doses revisadas', body: '3 cálculos salvos esta semana', link: '/ferramentas/calculadora-doses' },
        { plugin: 'analise-swot', title: 'Sua análise SWOT', body: 'Nenhuma análise ainda' },
      ],
    })
    renderCards()
    const section = await screen.findByRole('region', { name: 'Novidades das ferramentas' })
    expect(section).toBeInTheDocument()
    expect(screen.getByRole('heading', { level: 3, name: 'Doses revisadas' })).toBeInTheDocument()
    expect(screen.getByText('3 cálculos salvos esta semana')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Abrir Doses revisadas' })).toHaveAttribute('href', '/ferramentas/calculadora-doses')
    expect(screen.getByRole('heading', { level: 3, name: 'Sua análise SWOT' })).toBeInTheDocument()
    // A card without a link has no button.
    expect(screen.getAllByRole('link')).toHaveLength(1)
  })

  it('renders nothing when no tool has a card', async () => {
    const fetch = answer(200, { cards: [] })
    renderCards()
    await screen.findByText('success')
    expect(fetch).toHaveBeenCalled()
    expect(screen.getByTestId('cards')).toBeEmptyDOMElement()
  })

  it('renders nothing when the cards cannot be read', async () => {
    const fetch = answer(503, { error: { code: 'EUNAVAILABLE', message: 'Serviço indisponível' } })
    renderCards()
    await screen.findByText('error')
    expect(fetch).toHaveBeenCalled()
    expect(screen.getByTestId('cards')).toBeEmptyDOMElement()
  })
})
