import { afterEach, describe, expect, it, vi } from 'vitest'
import { act, render, screen } from '@testing-library/react'
import { Toaster } from '@/components/ui/Toaster'
import { dismissToast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api'
import { ERROR_QUEUE_MAX, isCriticalError, recordError, recordedErrors, reportUncaught } from './globalErrors'

describe('global error handling', () => {
  afterEach(() => act(() => dismissToast()))

  it('classifies critical errors', () => {
    expect(isCriticalError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true)
    expect(isCriticalError(new Error('Loading chunk 12 failed'))).toBe(true)
    expect(isCriticalError(new Error('NetworkError when attempting to fetch resource.'))).toBe(true)
    expect(isCriticalError('Script error.')).toBe(true)
    expect(isCriticalError(new RangeError('Out of memory'))).toBe(true)
    expect(isCriticalError(new Error('Cannot read properties of undefined'))).toBe(false)
    expect(isCriticalError(new ApiError(0, 'ENETWORK', 'x'))).toBe(false)
  })

  it('keeps at most 50 errors, newest last', () => {
    for (let i = 0; i < ERROR_QUEUE_MAX + 20; i++) recordError(new Error(`e${i}`))
    const queue = recordedErrors()
    expect(queue).toHaveLength(ERROR_QUEUE_MAX)
    expect(queue[queue.length - 1]!.message).toBe(`Error: e${ERROR_QUEUE_MAX + 19}`)
  })

  it('shows the critical toast with Recarregar, or the generic one', () => {
    render(<Toaster />)
    act(() => reportUncaught(new Error('Loading chunk 3 failed')))
    expect(screen.getByText('Ocorreu um erro inesperado. Por favor, recarregue a página.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Recarregar' })).toBeInTheDocument()
    act(() => reportUncaught(new Error('boom')))
    expect(screen.getByText('Erro ao processar requisição. Tente novamente.')).toBeInTheDocument()
    expect(screen.queryByText('Ocorreu um erro inesperado. Por favor, recarregue a página.')).not.toBeInTheDocument()
  })
})

describe('toasts', () => {
  it('shows one at a time and hides after 4 s', async () => {
    vi.useFakeTimers()
    const { toast } = await import('@/components/ui/toast')
    render(<Toaster />)
    act(() => {
      toast('Primeiro')
      toast('Segundo')
    })
    expect(screen.queryByText('Primeiro')).not.toBeInTheDocument()
    expect(screen.getByText('Segundo')).toBeInTheDocument()
    act(() => vi.advanceTimersByTime(3999))
    expect(screen.getByText('Segundo')).toBeInTheDocument()
    act(() => vi.advanceTimersByTime(1))
    expect(screen.queryByText('Segundo')).not.toBeInTheDocument()
    vi.useRealTimers()
  })
})
