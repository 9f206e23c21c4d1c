import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { THEME_STORAGE_KEY, readTheme, setTheme, toggleTheme } from './theme'

const initScript = readFileSync(resolve(import.meta.dirname, '../../public/theme-init.js'), 'utf8')

describe('theme', () => {
  afterEach(() => {
    localStorage.clear()
    document.documentElement.className = ''
  })

  it('saves the choice under "theme" and applies the dark class', () => {
    setTheme('dark')
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark')
    expect(document.documentElement.classList.contains('dark')).toBe(true)
    expect(toggleTheme()).toBe('light')
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe('light')
    expect(document.documentElement.classList.contains('dark')).toBe(false)
  })

  it('reads the saved theme back', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'dark')
    expect(readTheme()).toBe('dark')
    localStorage.setItem(THEME_STORAGE_KEY, 'light')
    expect(readTheme()).toBe('light')
  })

  it('the pre-paint script applies the saved theme before React runs', () => {
    localStorage.setItem(THEME_STORAGE_KEY, 'dark')
    new Function(initScript)()
    expect(document.documentElement.classList.contains('dark')).toBe(true)
    expect(document.documentElement.style.colorScheme).toBe('dark')

    localStorage.setItem(THEME_STORAGE_KEY, 'light')
    new Function(initScript)()
    expect(document.documentElement.classList.contains('dark')).toBe(false)
  })
})
