import { afterEach, describe, expect, it } from 'vitest'
import { readCookie, writeCookie } from './cookies'

// Reading the CSRF cookie is tested with the rest of the shared session
// client (session-client/index.test.ts).
describe('writeCookie', () => {
  afterEach(() => {
    document.cookie = 'vc_test=; Path=/; Max-Age=0'
  })

  it('stores an encoded value readCookie gives back', () => {
    writeCookie('vc_test', 'a b;c', 60)
    expect(document.cookie).toContain('vc_test=a%20b%3Bc')
    expect(readCookie('vc_test')).toBe('a b;c')
  })

  it('removes the cookie with a zero lifetime', () => {
    writeCookie('vc_test', 'x', 60)
    writeCookie('vc_test', 'x', 0)
    expect(readCookie('vc_test')).toBeUndefined()
  })
})
