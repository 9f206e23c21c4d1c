import { useSyncExternalStore } from 'react'
import { toast } from '@/components/ui/toast'
import { isStandalone } from './standalone'

/** Chrome's install event (not in TypeScript's DOM lib). */
export interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>
}

export const DISMISSED_AT_KEY = 'pwa-install-dismissed-at'
export const INSTALLED_KEY = 'pwa-installed'
export const DISMISS_DAYS = 7
const DAY_MS = 24 * 60 * 60 * 1000

export type InstallPlatform = 'android' | 'windows' | 'ios' | 'other'

export function detectPlatform(userAgent: string): InstallPlatform {
  if (/android/i.test(userAgent)) return 'android'
  if (/iphone|ipad|ipod/i.test(userAgent)) return 'ios'
  if (/windows/i.test(userAgent)) return 'windows'
  return 'other'
}

/** Card title by device. */
export function installPromptTitle(platform: InstallPlatform): string {
  if (platform === 'android') return 'Instale no seu Android'
  if (platform === 'windows') return 'Instale no seu PC'
  return 'Instale o app'
}

export interface InstallPromptConditions {
  platform: InstallPlatform
  hasInstallEvent: boolean
  standalone: boolean
  installed: boolean
  dismissedAt: number | null
  now: number
}

/**
 * The install card shows only on Android or Windows, only when the browser's
 * install event was captured, never when installed, and hidden for 7 days after
 * a dismissal.
 */
export function shouldShowInstallPrompt(c: InstallPromptConditions): boolean {
  if (c.platform !== 'android' && c.platform !== 'windows') return false
  if (!c.hasInstallEvent || c.standalone || c.installed) return false
  if (c.dismissedAt !== null && c.now - c.dismissedAt < DISMISS_DAYS * DAY_MS) return false
  return true
}

export type InstallButtonState = 'installed' | 'available' | 'unavailable'

export function installButtonState(c: { standalone: boolean; installed: boolean; hasInstallEvent: boolean }): InstallButtonState {
  if (c.standalone || c.installed) return 'installed'
  return c.hasInstallEvent ? 'available' : 'unavailable'
}

export const INSTALL_BUTTON_LABELS: Record<InstallButtonState, string> = {
  installed: 'App Instalado',
  available: 'Instalar App',
  unavailable: 'Instalação Indisponível',
}

// --- store of the captured install event and the local flags ---

interface InstallState {
  event: BeforeInstallPromptEvent | null
  installed: boolean
  dismissedAt: number | null
}

function readNumber(key: string): number | null {
  try {
    const raw = localStorage.getItem(key)
    const n = raw === null ? NaN : Number(raw)
    return Number.isFinite(n) ? n : null
  } catch {
    return null
  }
}

function readFlag(key: string): boolean {
  try {
    return localStorage.getItem(key) === 'true'
  } catch {
    return false
  }
}

let state: InstallState = { event: null, installed: false, dismissedAt: null }
const listeners = new Set<() => void>()

function update(patch: Partial<InstallState>) {
  state = { ...state, ...patch }
  for (const listener of listeners) listener()
}

/**
 * Called from main.tsx before React renders: Chrome fires beforeinstallprompt
 * early and only once per page load.
 */
export function captureInstallEvents(target: Window = window): void {
  state = { event: null, installed: readFlag(INSTALLED_KEY), dismissedAt: readNumber(DISMISSED_AT_KEY) }
  target.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault()
    update({ event: e as BeforeInstallPromptEvent })
  })
  target.addEventListener('appinstalled', () => markInstalled())
}

function markInstalled() {
  try {
    localStorage.setItem(INSTALLED_KEY, 'true')
    localStorage.removeItem(DISMISSED_AT_KEY)
  } catch {
    // Flags are a convenience; display-mode still tells the truth next time.
  }
  update({ installed: true, dismissedAt: null, event: null })
}

export function dismissInstallPrompt(now = Date.now()): void {
  try {
    localStorage.setItem(DISMISSED_AT_KEY, String(now))
  } catch {
    // Not persisted: hidden for this visit only.
  }
  update({ dismissedAt: now })
}

/** Opens the browser's install dialog; a toast says when it is unavailable or fails. */
export async function promptInstall(): Promise<void> {
  const event = state.event
  if (!event) {
    toast.error('Instalação não disponível. Recarregue a página e tente novamente.')
    return
  }
  try {
    await event.prompt()
    const choice = await event.userChoice
    // The event is single-use either way.
    update({ event: null })
    if (choice.outcome === 'accepted') {
      markInstalled()
      toast.success('App instalado com sucesso!')
    } else {
      toast('Instalação cancelada')
    }
  } catch {
    toast.error('Erro ao instalar. Tente novamente.')
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useInstallState() {
  const s = useSyncExternalStore(subscribe, () => state, () => state)
  return {
    hasInstallEvent: s.event !== null,
    installed: s.installed,
    dismissedAt: s.dismissedAt,
    standalone: isStandalone(),
  }
}
