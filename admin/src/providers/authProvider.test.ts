import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ACCESS_REFUSED, authProvider, mayAccessResource } from './authProvider'
import { clearCookies, scriptFetch, setCookie } from './testServer'

const session = (roles: string[]) => ({ user: { id: 'u1', email: 'ana@vetclube.dev', provider: 'email', roles, created_at: '' } })

beforeEach(() => {
  clearCookies()
  setCookie('vc_csrf=csrf1; path=/')
})
afterEach(() => {
  vi.unstubAllGlobals()
})

function coreWithRoles(roles: string[]) {
  return scriptFetch((call) => {
    switch (`${call.method} ${call.path}`) {
      case 'POST /api/auth/login':
        return { status: 200, json: { message: 'Login realizado com sucesso!', user: session(roles).user } }
      case 'GET /api/auth/session':
        return { status: 200, json: session(roles) }
      case 'POST /api/auth/logout':
        return { status: 200, json: { message: 'Logout realizado com sucesso!' } }
    }
  })
}

describe('authProvider', () => {
  it('lets an editor in, posting email and password as JSON', async () => {
    const calls = coreWithRoles(['user', 'editor'])
    await authProvider.login({ username: 'ana@vetclube.dev', password: 'Senha#123' })
    expect(calls[0].headers.get('Content-Type')).toBe('application/json')
    expect(JSON.parse(calls[0].body)).toEqual({ email: 'ana@vetclube.dev', password: 'Senha#123' })
    await expect(authProvider.checkAuth({})).resolves.toBeUndefined()
    await expect(authProvider.getIdentity!()).resolves.toEqual({ id: 'u1', fullName: 'ana@vetclube.dev' })
    expect(calls.some((c) => c.path === '/api/auth/logout')).toBe(false)
  })

  it('refuses an account without editor or super_admin and signs it out again', async () => {
    const calls = coreWithRoles(['user', 'premium'])
    await expect(authProvider.login({ username: 'demo@vetclube.dev', password: 'x' })).rejects.toThrow(ACCESS_REFUSED)
    const logout = calls.find((c) => c.path === '/api/auth/logout')
    expect(logout?.headers.get('X-CSRF-Token')).toBe('csrf1')
    await expect(authProvider.checkAuth({})).rejects.toThrow('Acesso restrito a editores e administradores.')
  })

  it('shows the server message when the credentials are wrong', async () => {
    scriptFetch(() => ({ status: 401, json: { error: { message: 'Email ou senha incorretos' } } }))
    await expect(authProvider.login({ username: 'x@y.z', password: 'x' })).rejects.toThrow('Email ou senha incorretos')
  })

  it('treats a session the refresh cannot revive as signed out', async () => {
    const calls = scriptFetch(() => ({ status: 401, json: { error: { message: 'Usuário não autenticado' } } }))
    await expect(authProvider.checkAuth({})).rejects.toThrow()
    expect(calls.map((c) => c.path)).toEqual(['/api/auth/session', '/api/auth/refresh'])
  })

  it('asks nothing of the server when no session cookie exists', async () => {
    clearCookies()
    const calls = scriptFetch(() => ({ status: 500 }))
    await expect(authProvider.checkAuth({})).rejects.toThrow()
    await expect(authProvider.getPermissions!({})).resolves.toEqual([])
    expect(calls).toHaveLength(0)
  })

  it('asks for the session once while a request is in flight', async () => {
    const calls = coreWithRoles(['user', 'super_admin'])
    await Promise.all([
      authProvider.checkAuth({}),
      authProvider.getPermissions!({}),
      authProvider.canAccess!({ resource: 'users', action: 'list' }),
      authProvider.getIdentity!(),
    ])
    expect(calls.filter((c) => c.path === '/api/auth/session')).toHaveLength(1)
  })

  it('signs out on 401 but keeps an editor signed in on 403', async () => {
    await expect(authProvider.checkError({ status: 401 })).rejects.toThrow()
    await expect(authProvider.checkError({ status: 403 })).resolves.toBeUndefined()
  })

  it('opens users to super admins only', async () => {
    expect(mayAccessResource(['user', 'super_admin', 'editor'], 'users')).toBe(true)
    expect(mayAccessResource(['user', 'editor'], 'users')).toBe(false)
    expect(mayAccessResource(['user', 'editor'], undefined)).toBe(true)
    expect(mayAccessResource(['user'], undefined)).toBe(false)
    coreWithRoles(['user', 'editor'])
    await expect(authProvider.canAccess!({ resource: 'users', action: 'list' })).resolves.toBe(false)
    await expect(authProvider.getPermissions!({})).resolves.toEqual(['user', 'editor'])
  })
})
