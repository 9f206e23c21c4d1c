import { describe, expect, it } from 'vitest'
import { detectPlatform, installButtonState, installPromptTitle, shouldShowInstallPrompt, type InstallPromptConditions } from './install'

const DAY = 24 * 60 * 60 * 1000
const NOW = Date.UTC(2026, 10, 22, 12)

const base: InstallPromptConditions = {
  platform: 'android',
  hasInstallEvent: true,
  standalone: false,
  installed: false,
  dismissedAt: null,
  now: NOW,
}

describe('install prompt conditions', () => {
  it('shows on Android and Windows when the install event was captured', () => {
    expect(shouldShowInstallPrompt(base)).toBe(true)
    expect(shouldShowInstallPrompt({ ...base, platform: 'windows' })).toBe(true)
  })

  it('never shows on other platforms', () => {
    expect(shouldShowInstallPrompt({ ...base, platform: 'ios' })).toBe(false)
    expect(shouldShowInstallPrompt({ ...base, platform: 'other' })).toBe(false)
  })

  it('needs the browser install event', () => {
    expect(shouldShowInstallPrompt({ ...base, hasInstallEvent: false })).toBe(false)
  })

  it('never shows when installed or running standalone', () => {
    expect(shouldShowInstallPrompt({ ...base, standalone: true })).toBe(false)
    expect(shouldShowInstallPrompt({ ...base, installed: true })).toBe(false)
  })

  it('stays hidden for 7 days after a dismissal', () => {
    expect(shouldShowInstallPrompt({ ...base, dismissedAt: NOW - 1 * DAY })).toBe(false)
    expect(shouldShowInstallPrompt({ ...base, dismissedAt: NOW - 7 * DAY + 60_000 })).toBe(false)
    expect(shouldShowInstallPrompt({ ...base, dismissedAt: NOW - 7 * DAY })).toBe(true)
    expect(shouldShowInstallPrompt({ ...base, dismissedAt: NOW - 30 * DAY })).toBe(true)
  })
})

describe('install texts', () => {
  it('detects the platform from the user agent', () => {
    expect(detectPlatform('Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/130 Mobile Safari/537.36')).toBe('android')
    expect(detectPlatform('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130 Safari/537.36')).toBe('windows')
    expect(detectPlatform('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148')).toBe('ios')
    expect(detectPlatform('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/130 Safari/537.36')).toBe('other')
  })

  it('titles the card by device', () => {
    expect(installPromptTitle('android')).toBe('Instale no seu Android')
    expect(installPromptTitle('windows')).toBe('Instale no seu PC')
    expect(installPromptTitle('other')).toBe('Instale o app')
  })

  it('labels the install button by state', () => {
    expect(installButtonState({ standalone: true, installed: false, hasInstallEvent: true })).toBe('installed')
    expect(installButtonState({ standalone: false, installed: true, hasInstallEvent: false })).toBe('installed')
    expect(installButtonState({ standalone: false, installed: false, hasInstallEvent: true })).toBe('available')
    expect(installButtonState({ standalone: false, installed: false, hasInstallEvent: false })).toBe('unavailable')
  })
})
