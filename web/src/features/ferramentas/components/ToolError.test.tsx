import { render, screen } from '@testing-library/react'
import { MemoryRouter } from 'react-router'
import { describe, expect, it } from 'vitest'
import { ApiError } from '@/lib/api'
import { ToolError } from './ToolError'

describe('ToolError', () => {
  it('invites to Premium when the refusal is a plan limit', () => {
    const reason = 'Você atingiu o limite de 10 pacientes do teste gratuito. Assine o Premium para ter pacientes ilimitados.'
    render(
      <MemoryRouter>
        <ToolError error={new ApiError(403, 'forbidden', reason, {}, undefined, true)} />
      </MemoryRouter>,
    )
    expect(screen.getByRole('heading', { name: 'Limite do teste gratuito' })).toBeInTheDocument()
    expect(screen.getByText(reason)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Ver Planos' })).toHaveAttribute('href', '/pricing')
  })

  it('shows any other error as its message', () => {
    render(
      <MemoryRouter>
        <ToolError error={new ApiError(403, 'forbidden', 'A ferramenta não aceitou a requisição.')} />
      </MemoryRouter>,
    )
    expect(screen.getByRole('alert')).toHaveTextContent('A ferramenta não aceitou a requisição.')
    expect(screen.queryByRole('link', { name: 'Ver Planos' })).toBeNull()
  })
})
