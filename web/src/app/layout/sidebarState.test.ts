import { afterEach, describe, expect, it } from 'vitest'
import { SIDEBAR_COOKIE, isSidebarShortcut, readSidebarOpen, saveSidebarOpen } from './sidebarState'
import { sidebarDisplayName } from './Sidebar'
import { themeToggleLabel } from './ThemeToggle'

const key = (k: string, mods: Partial<KeyboardEvent> = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods })

describe('sidebar state', () => {
  afterEach(() => {
    document.cookie = `${SIDEBAR_COOKIE}=; Path=/; Max-Age=0`
  })

  it('is open until the cookie says otherwise, and remembers the choice', () => {
    expect(readSidebarOpen()).toBe(true)
    saveSidebarOpen(false)
    expect(document.cookie).toContain(`${SIDEBAR_COOKIE}=false`)
    expect(readSidebarOpen()).toBe(false)
    saveSidebarOpen(true)
    expect(readSidebarOpen()).toBe(true)
  })

  it('toggles on Ctrl+B and Cmd+B only', () => {
    expect(isSidebarShortcut(key('b', { ctrlKey: true }))).toBe(true)
    expect(isSidebarShortcut(key('B', { metaKey: true }))).toBe(true)
    expect(isSidebarShortcut(key('b'))).toBe(false)
    expect(isSidebarShortcut(key('b', { ctrlKey: true, shiftKey: true }))).toBe(false)
    expect(isSidebarShortcut(key('n', { ctrlKey: true }))).toBe(false)
  })

  it('footer name falls back to Carregando... and Usuário', () => {
    expect(sidebarDisplayName(true, '')).toBe('Carregando...')
    expect(sidebarDisplayName(false, '')).toBe('Usuário')
    expect(sidebarDisplayName(false, 'Ana Souza')).toBe('Ana Souza')
  })

  it('theme toggle names the mode it switches to', () => {
    expect(themeToggleLabel('light')).toBe('Modo Escuro')
    expect(themeToggleLabel('dark')).toBe('Modo Claro')
  })
})
