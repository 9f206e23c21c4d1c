import { afterEach, describe, expect, it, vi } from 'vitest'
import { readCsrfCookie } from './cookies'

describe('readCsrfCookie', () => {
  afterEach(() => vi.restoreAllMocks())

  it('finds the session token under either name, the __Host- one first', () => {
    const cookie = vi.spyOn(document, 'cookie', 'get')
    cookie.mockReturnValue('theme=dark; vc_csrf=plain')
    expect(readCsrfCookie()).toBe('plain')
    cookie.mockReturnValue('__Host-vc_csrf=a%2Fb; theme=dark')
    expect(readCsrfCookie()).toBe('a/b')
    cookie.mockReturnValue('vc_csrf=planted; __Host-vc_csrf=real')
    expect(readCsrfCookie()).toBe('real')
    cookie.mockReturnValue('theme=dark; x_vc_csrf=no')
    expect(readCsrfCookie()).toBeUndefined()
  })
})
