import { useEffect } from 'react'
import { Link, useLocation } from 'react-router'
import { Coins, LogOut, Menu } from 'lucide-react'
import { Logo } from '@/components/Logo'
import { useAuth } from '@/lib/session/AuthProvider'
import { useSignOut } from '@/features/auth/useSignOut'
import { NotificationCenter } from '@/features/notificacoes/components/NotificationCenter'
import { usePointsBalance } from '@/features/pontos/api'
import { TrialBadge } from '@/features/subscription/TrialBadge'
import { cn } from '@/lib/cn'
import { useSidebar } from './SidebarContext'
import { ThemeToggle } from './ThemeToggle'

const numberFormat = new Intl.NumberFormat('pt-BR')

/** value once known, else the last one stored under key on this device (kept in localStorage). */
function useLastKnown(key: string | null, value: number | undefined): number | undefined {
  useEffect(() => {
    if (!key || value === undefined) return
    try {
      localStorage.setItem(key, String(value))
    } catch {
      // Storage disabled: only the stand-in is lost.
    }
  }, [key, value])
  if (value !== undefined || !key) return value
  try {
    const stored = localStorage.getItem(key)
    return stored === null || !Number.isFinite(Number(stored)) ? undefined : Number(stored)
  } catch {
    return undefined
  }
}

/** Fixed top bar; hidden on the AI route below 1024 px, where the chat needs the whole height. */
export function TopBar() {
  const { toggle, openMobile, isMobile } = useSidebar()
  const { pathname } = useLocation()
  // The last balance this device saw until the server answers (and while it
  // cannot be reached); '…' before any: the badge never shows an error, nor a false 0.
  const { user } = useAuth()
  const fresh = usePointsBalance().data?.total_points
  const balance = useLastKnown(user ? `vc-last-points:${user.id}` : null, fresh)
  const signOut = useSignOut()
  const onAiRoute = pathname.startsWith('/vetclube-ia')
  return (
    <header
      className={cn(
        'fixed inset-x-0 top-[var(--banner-h,0px)] z-40 h-14 items-center gap-2 border-b border-border bg-card/95 px-2 backdrop-blur sm:px-4',
        onAiRoute ? 'hidden lg:flex' : 'flex',
      )}
    >
      <button
        type="button"
        onClick={toggle}
        aria-label="Alternar menu lateral"
        aria-expanded={isMobile ? openMobile : undefined}
        className="inline-flex h-10 w-10 items-center justify-center rounded-lg hover:bg-muted lg:hidden"
      >
        <Menu aria-hidden="true" className="h-5 w-5" />
      </button>
      <Link to="/" aria-label="VetClube — início" className="rounded-lg">
        {/* Below 360 px the mark alone: the bar keeps room for every control. */}
        <Logo wordmarkClassName="hidden min-[360px]:inline" />
      </Link>
      <div className="ml-auto flex items-center gap-1 sm:gap-2">
        {/* Phones read it in the menu drawer: the bar keeps room for 'Sair'. */}
        <div className="hidden md:block">
          <TrialBadge />
        </div>
        <Link
          to="/pontos"
          className="inline-flex h-9 items-center gap-1.5 rounded-full bg-amber-100 px-3 text-sm font-semibold text-amber-900 hover:bg-amber-200 dark:bg-amber-900/40 dark:text-amber-100"
        >
          <Coins aria-hidden="true" className="h-4 w-4" />
          <span>{balance === undefined ? '…' : numberFormat.format(balance)}</span> <span className="sr-only sm:not-sr-only">VetCoins</span>
        </Link>
        <NotificationCenter />
        <div className="hidden md:block">
          <ThemeToggle />
        </div>
        <button
          type="button"
          onClick={() => void signOut()}
          className="inline-flex h-10 items-center gap-2 rounded-lg px-2 text-sm font-medium hover:bg-muted sm:px-3"
        >
          <LogOut aria-hidden="true" className="h-5 w-5" />
          {/* The icon alone on phones, still named 'Sair' for screen readers. */}
          <span className="sr-only sm:not-sr-only">Sair</span>
        </button>
      </div>
    </header>
  )
}
