import { useEffect, useId, useRef } from 'react'
import { Link, NavLink, useLocation } from 'react-router'
import { LogOut, PanelLeftClose, PanelLeftOpen, X } from 'lucide-react'
import { Avatar } from '@/components/ui/Avatar'
import { Logo } from '@/components/Logo'
import { useAuth, hasRole } from '@/lib/session/AuthProvider'
import { useSignOut } from '@/features/auth/useSignOut'
import { useMyProfile } from '@/features/profile/api'
import { displayName, fullName } from '@/lib/names'
import { useIsPremium } from '@/features/subscription/api'
import { TrialBadge } from '@/features/subscription/TrialBadge'
import { cn } from '@/lib/cn'
import { COMMUNITY_ENTRIES, isEntryActive, visibleSidebarEntries, type NavEntry } from './nav'
import { useSidebar } from './SidebarContext'
import { ThemeToggle } from './ThemeToggle'

/** 'Carregando...' while the profile loads, then the full name, else 'Usuário'. */
export function sidebarDisplayName(loading: boolean, name: string): string {
  if (loading) return 'Carregando...'
  return name || 'Usuário'
}

function NavList({ entries, collapsed, onNavigate, labelledBy }: { entries: NavEntry[]; collapsed: boolean; onNavigate?: () => void; labelledBy?: string }) {
  const { pathname } = useLocation()
  return (
    <ul className="flex flex-col gap-1" aria-labelledby={labelledBy}>
      {entries.map((entry) => {
        const active = isEntryActive(entry.to, pathname)
        const Icon = entry.icon
        return (
          <li key={entry.to}>
            <NavLink
              to={entry.to}
              end={entry.to === '/'}
              onClick={onNavigate}
              aria-current={active ? 'page' : undefined}
              aria-label={collapsed ? entry.label : undefined}
              title={collapsed ? entry.label : undefined}
              className={cn(
                'flex h-10 items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors',
                active ? 'bg-sidebar-accent text-sidebar-accent-foreground' : 'text-sidebar-foreground hover:bg-muted',
                collapsed && 'justify-center px-0',
              )}
            >
              <Icon aria-hidden="true" className="h-5 w-5 shrink-0" />
              {!collapsed && <span className="truncate">{entry.label}</span>}
            </NavLink>
          </li>
        )
      })}
    </ul>
  )
}

function SidebarNav({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { user } = useAuth()
  const isPremium = useIsPremium()
  const entries = visibleSidebarEntries({ isPremium, isSuperAdmin: hasRole(user, 'super_admin') })
  const groupId = useId()
  return (
    <nav aria-label="Menu principal" className="flex-1 overflow-y-auto px-2 py-3">
      <NavList entries={entries} collapsed={collapsed} onNavigate={onNavigate} />
      <div className="mt-3 border-t border-border pt-3">
        <p id={groupId} className={cn('px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-muted-foreground', collapsed && 'sr-only')}>
          Comunidade
        </p>
        <NavList entries={COMMUNITY_ENTRIES} collapsed={collapsed} onNavigate={onNavigate} labelledBy={groupId} />
      </div>
    </nav>
  )
}

function SidebarFooter({ collapsed, showSignOut, onNavigate }: { collapsed: boolean; showSignOut: boolean; onNavigate?: () => void }) {
  const profile = useMyProfile()
  const signOut = useSignOut()
  const name = sidebarDisplayName(profile.isPending, fullName(profile.data))
  return (
    <div className="flex flex-col gap-2 border-t border-border p-2">
      <div className={cn('flex items-center gap-3 px-1 py-1', collapsed && 'justify-center px-0')}>
        <Avatar src={profile.data?.avatar_url} name={displayName(profile.data)} />
        {!collapsed && (
          <div className="flex min-w-0 flex-col">
            <span className="truncate text-sm font-semibold">{name}</span>
            <Link to="/profile" onClick={onNavigate} className="text-xs font-medium text-primary hover:underline">
              Ver Perfil
            </Link>
          </div>
        )}
      </div>
      {/* The drawer's copy: from 768 px the top bar shows the badge, so the desktop sidebar does not repeat it. */}
      {!collapsed && showSignOut && <TrialBadge className="self-start md:hidden" onNavigate={onNavigate} />}
      <ThemeToggle showLabel={!collapsed} className={collapsed ? 'mx-auto' : undefined} />
      {showSignOut && (
        <button
          type="button"
          onClick={() => void signOut()}
          className="inline-flex h-9 w-full items-center gap-3 rounded-lg px-2 text-sm font-medium text-destructive hover:bg-muted"
        >
          <LogOut aria-hidden="true" className="h-5 w-5" />
          Sair
        </button>
      )}
    </div>
  )
}

/** Desktop sidebar (≥ 1024 px): 16rem, or 3rem of icons when collapsed. */
export function DesktopSidebar() {
  const { open, setOpen } = useSidebar()
  const collapsed = !open
  return (
    <aside
      aria-label="Barra lateral"
      className={cn(
        'fixed bottom-0 left-0 top-[calc(3.5rem+var(--banner-h,0px))] z-30 hidden flex-col border-r border-border bg-sidebar text-sidebar-foreground transition-[width] duration-200 lg:flex',
        collapsed ? 'w-12' : 'w-64',
      )}
    >
      <SidebarNav collapsed={collapsed} />
      <SidebarFooter collapsed={collapsed} showSignOut={false} />
      <button
        type="button"
        onClick={() => setOpen(!open)}
        aria-label={open ? 'Recolher menu lateral' : 'Expandir menu lateral'}
        title={open ? 'Recolher menu lateral (Ctrl+B)' : 'Expandir menu lateral (Ctrl+B)'}
        className="flex h-10 items-center justify-center border-t border-border text-muted-foreground hover:bg-muted"
      >
        {open ? <PanelLeftClose aria-hidden="true" className="h-5 w-5" /> : <PanelLeftOpen aria-hidden="true" className="h-5 w-5" />}
      </button>
    </aside>
  )
}

/** Drawer below 1024 px (18rem), closing on navigation, Escape or a tap outside. */
export function MobileSidebar() {
  const { openMobile, setOpenMobile } = useSidebar()
  const panelRef = useRef<HTMLDivElement>(null)

  useEffect(() => {
    if (!openMobile) return
    const previous = document.activeElement as HTMLElement | null
    panelRef.current?.querySelector<HTMLElement>('a, button')?.focus()
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpenMobile(false)
    }
    document.addEventListener('keydown', onKeyDown)
    document.body.style.overflow = 'hidden'
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      document.body.style.overflow = ''
      previous?.focus?.()
    }
  }, [openMobile, setOpenMobile])

  if (!openMobile) return null
  const close = () => setOpenMobile(false)
  return (
    <div className="lg:hidden">
      <div aria-hidden="true" className="fixed inset-0 z-50 bg-black/50" onClick={close} />
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-label="Menu"
        className="fixed bottom-0 left-0 top-[var(--banner-h,0px)] z-50 flex w-72 max-w-[85vw] flex-col bg-sidebar text-sidebar-foreground shadow-xl"
      >
        <div className="flex h-14 items-center justify-between border-b border-border px-3">
          <Link to="/" onClick={close} aria-label="VetClube — início">
            <Logo />
          </Link>
          <button type="button" onClick={close} aria-label="Fechar menu" className="rounded-lg p-2 hover:bg-muted">
            <X aria-hidden="true" className="h-5 w-5" />
          </button>
        </div>
        <SidebarNav collapsed={false} onNavigate={close} />
        <SidebarFooter collapsed={false} showSignOut onNavigate={close} />
      </div>
    </div>
  )
}
