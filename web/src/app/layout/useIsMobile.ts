import { useSyncExternalStore } from 'react'
import { MOBILE_BREAKPOINT } from './sidebarState'

const query = `(max-width: ${MOBILE_BREAKPOINT - 1}px)`
const RESIZE_DEBOUNCE_MS = 16

function subscribe(onChange: () => void) {
  const mql = window.matchMedia(query)
  let timer: ReturnType<typeof setTimeout> | undefined
  const debounced = () => {
    clearTimeout(timer)
    timer = setTimeout(onChange, RESIZE_DEBOUNCE_MS)
  }
  mql.addEventListener('change', debounced)
  return () => {
    clearTimeout(timer)
    mql.removeEventListener('change', debounced)
  }
}

/** True below 1024 px, where the sidebar is a drawer and the bottom nav shows. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, () => false)
}
