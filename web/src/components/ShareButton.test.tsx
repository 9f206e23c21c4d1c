import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { Toaster } from '@/components/ui/Toaster'
import { ShareButton } from './ShareButton'

afterEach(() => vi.unstubAllGlobals())

describe('ShareButton', () => {
  it("copies the link where there is no share sheet and says 'Link copiado!' once", async () => {
    const user = userEvent.setup()
    const writeText = vi.fn(async () => {})
    Object.defineProperty(navigator, 'share', { configurable: true, value: undefined })
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } })
    render(
      <>
        <ShareButton title="Notícia" url="https://vetclube.test/noticias/vacina" />
        <Toaster />
      </>,
    )
    await user.click(screen.getByRole('button', { name: 'Compartilhar' }))
    expect(writeText).toHaveBeenCalledWith('https://vetclube.test/noticias/vacina')
    expect(await screen.findByRole('status')).toHaveTextContent('Link copiado!')
    expect(screen.getAllByText('Link copiado!')).toHaveLength(1)
    expect(screen.getByRole('button', { name: 'Compartilhar' })).toHaveTextContent('Copiado')
  })
})
