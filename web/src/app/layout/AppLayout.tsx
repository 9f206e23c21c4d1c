import { useEffect } from 'react'
import { Outlet, useLocation } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { FullScreenLoader } from '@/components/ui/Spinner'
import { useAuth } from '@/lib/session/AuthProvider'
import { cn } from '@/lib/cn'
import { TrialExpiredDialog } from '@/features/subscription/TrialExpiredDialog'
import { DunningBanner } from '@/features/subscription/components/DunningBanner'
import { SubscriptionCheck } from '@/features/subscription/useSubscriptionCheck'
import { PROMPT_SLOT_ID } from '@/features/notificacoes/components/PushPermissionPrompt'
import { BottomNav } from './BottomNav'
import { LiveEvents } from './LiveEvents'
import { DesktopSidebar, MobileSidebar } from './Sidebar'
import { SidebarProvider, useSidebar } from './SidebarContext'
import { TopBar } from './TopBar'

/**
 * A few seconds after a signed-in start, the tools list and the calculators'
 * offline builds go into the service worker's caches, so the installed app
 * opened later with no signal still calculates (features/ferramentas/offline.ts).
 */
function useKeepToolsForOffline() {
  const client = useQueryClient()
  useEffect(() => {
    const timer = setTimeout(() => {
      void import('@/features/ferramentas/offline').then((m) => m.keepToolsForOffline(client)).catch(() => {})
    }, 5_000)
    return () => clearTimeout(timer)
  }, [client])
}

function LayoutFrame() {
  useKeepToolsForOffline()
  const { open } = useSidebar()
  const { pathname } = useLocation()
  const onAiRoute = pathname.startsWith('/vetclube-ia')
  const { user } = useAuth()
  return (
    <div className="min-h-dvh bg-background">
      <a href="#conteudo" className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-[60] focus:rounded-lg focus:bg-card focus:p-3">
        Pular para o conteúdo
      </a>
      <TopBar />
      <DesktopSidebar />
      <MobileSidebar />
      <main
        id="conteudo"
        tabIndex={-1}
        className={cn(
          'px-4 pb-[calc(5rem+env(safe-area-inset-bottom))] transition-[padding] duration-200 sm:px-6 lg:pb-10 lg:pt-20',
          onAiRoute ? 'pt-4' : 'pt-18',
          open ? 'lg:pl-[calc(16rem+2rem)]' : 'lg:pl-[calc(3rem+2rem)]',
        )}
      >
        <div className="mx-auto w-full max-w-6xl">
          <div id={PROMPT_SLOT_ID} />
          <DunningBanner />
          <Outlet />
        </div>
      </main>
      <BottomNav />
      {/* Live VetCoins/notification events and the trial-expired dialog. */}
      <LiveEvents />
      <SubscriptionCheck userId={user?.id} />
      <TrialExpiredDialog />
    </div>
  )
}

/** Signed-in layout: sidebar, fixed top bar, bottom nav below 1024 px. */
export function AppLayout() {
  return (
    <SidebarProvider>
      <LayoutFrame />
    </SidebarProvider>
  )
}

/** Public pages that signed-in users still see inside their layout (public profiles). */
export function OptionalLayout() {
  const { isAuthenticated, loading } = useAuth()
  if (loading) return <FullScreenLoader />
  if (isAuthenticated) return <AppLayout />
  return (
    <main className="min-h-dvh bg-background px-4 py-8">
      <div className="mx-auto w-full max-w-4xl">
        <Outlet />
      </div>
    </main>
  )
}
