import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { useLocation } from 'react-router'
import { isSidebarShortcut, readSidebarOpen, saveSidebarOpen } from './sidebarState'
import { useIsMobile } from './useIsMobile'

interface SidebarContextValue {
  isMobile: boolean
  /** Desktop: expanded (16rem) or collapsed to icons (3rem); kept in a cookie. */
  open: boolean
  setOpen: (open: boolean) => void
  /** Below 1024 px: the drawer (18rem). */
  openMobile: boolean
  setOpenMobile: (open: boolean) => void
  toggle: () => void
}

const SidebarContext = createContext<SidebarContextValue | null>(null)

export function SidebarProvider({ children }: { children: ReactNode }) {
  const isMobile = useIsMobile()
  const [open, setOpenState] = useState(readSidebarOpen)
  const [openMobile, setOpenMobile] = useState(false)
  const { pathname } = useLocation()

  const setOpen = useCallback((next: boolean) => {
    setOpenState(next)
    saveSidebarOpen(next)
  }, [])

  const toggle = useCallback(() => {
    if (isMobile) setOpenMobile((v) => !v)
    else setOpen(!open)
  }, [isMobile, open, setOpen])

  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      if (!isSidebarShortcut(e)) return
      e.preventDefault()
      toggle()
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [toggle])

  // The drawer closes on every navigation and when the screen grows past 1024 px.
  useEffect(() => setOpenMobile(false), [pathname, isMobile])

  const value = useMemo(() => ({ isMobile, open, setOpen, openMobile, setOpenMobile, toggle }), [isMobile, open, setOpen, openMobile, toggle])
  return <SidebarContext.Provider value={value}>{children}</SidebarContext.Provider>
}

export function useSidebar(): SidebarContextValue {
  const ctx = useContext(SidebarContext)
  if (!ctx) throw new Error('useSidebar must be used inside <SidebarProvider>')
  return ctx
}
