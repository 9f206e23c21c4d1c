import { useSyncExternalStore } from 'react'

export type ToastVariant = 'default' | 'success' | 'error'

export interface ToastOptions {
  title?: string
  description?: string
  variant?: ToastVariant
  action?: { label: string; onClick: () => void }
  /** Milliseconds; 4 s unless given. */
  duration?: number
}

export interface ToastItem extends ToastOptions {
  id: number
  duration: number
}

export const TOAST_DURATION_MS = 4000

// One toast at a time: a new toast replaces the one on screen, so they never pile up.
let current: ToastItem | null = null
let nextId = 1
let timer: ReturnType<typeof setTimeout> | undefined
const listeners = new Set<() => void>()

function emit() {
  for (const listener of listeners) listener()
}

export function dismissToast(id?: number): void {
  if (id !== undefined && current?.id !== id) return
  clearTimeout(timer)
  current = null
  emit()
}

/**
 * Shows a toast. `toast('Texto')`, `toast({title, description, variant, action})`,
 * or the shorthands `toast.success('…')` / `toast.error('…')`.
 */
export function toast(input: string | ToastOptions): number {
  const options = typeof input === 'string' ? { title: input } : input
  clearTimeout(timer)
  const item: ToastItem = { ...options, id: nextId++, duration: options.duration ?? TOAST_DURATION_MS }
  current = item
  timer = setTimeout(() => dismissToast(item.id), item.duration)
  emit()
  return item.id
}

toast.success = (title: string, description?: string) => toast({ title, description, variant: 'success' })
toast.error = (title: string, description?: string) => toast({ title, description, variant: 'error' })

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useCurrentToast(): ToastItem | null {
  return useSyncExternalStore(subscribe, () => current, () => null)
}
