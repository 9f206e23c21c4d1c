import { useEffect, useState } from 'react'
import { Link } from 'react-router'
import {
  CalendarDays,
  GraduationCap,
  Lock,
  MessageSquare,
  Quote as QuoteIcon,
  Smartphone,
  Sparkles,
  Trophy,
  Users,
  Wrench,
  type LucideIcon,
} from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { buttonClasses } from '@/components/ui/Button'
import { usePageTitle } from '@/lib/usePageTitle'
import { InstallButton, useInstallState } from '@/features/pwa'
import { useMyProfile, useProfileCompleteness } from '@/features/profile'
import { displayName } from '@/lib/names'
import { readHomeGreeting, storeHomeGreeting } from '@/lib/homeShell'
import { useAuth } from '@/lib/session/AuthProvider'
import { LastCourseCard } from '@/features/cursos'
import { LatestVideoCard } from '@/features/videos'
import { useCheckinCard } from './CheckinSlot'
import { DashboardCards } from './DashboardCards'
import { NextEventCard } from './NextEventCard'
import { ProfileCompletenessBanner } from './ProfileCompletenessBanner'
import { pickQuote } from './quotes'

interface Tile {
  label: string
  to: string
  icon: LucideIcon
  tone: string
}

const QUICK_ACCESS: Tile[] = [
  { label: 'Cursos', to: '/cursos', icon: GraduationCap, tone: 'bg-sky-100 text-sky-800 dark:bg-sky-900/50 dark:text-sky-100' },
  { label: 'Ferramentas', to: '/ferramentas', icon: Wrench, tone: 'bg-teal-100 text-teal-800 dark:bg-teal-900/50 dark:text-teal-100' },
  { label: 'Desafios', to: '/desafios', icon: Trophy, tone: 'bg-amber-100 text-amber-800 dark:bg-amber-900/50 dark:text-amber-100' },
  { label: 'Comunidade', to: '/community', icon: Users, tone: 'bg-violet-100 text-violet-800 dark:bg-violet-900/50 dark:text-violet-100' },
  { label: 'Exclusivos', to: '/conteudos-exclusivos', icon: Lock, tone: 'bg-rose-100 text-rose-800 dark:bg-rose-900/50 dark:text-rose-100' },
  { label: 'Eventos', to: '/eventos', icon: CalendarDays, tone: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/50 dark:text-emerald-100' },
]

function QuickAccessGrid() {
  return (
    <section aria-labelledby="quick-access-title" className="@container">
      <h2 id="quick-access-title" className="mb-3 text-lg font-semibold">
        Acesso rápido
      </h2>
      {/* 3 columns on mobile; on desktop 2, 4 or 6 by the width available beside the sidebar. */}
      <ul className="grid grid-cols-3 gap-3 lg:grid-cols-2 lg:@lg:grid-cols-4 lg:@3xl:grid-cols-6">
        {QUICK_ACCESS.map((tile) => {
          const Icon = tile.icon
          return (
            <li key={tile.to}>
              <Link
                to={tile.to}
                className="flex h-full flex-col items-center gap-2 rounded-2xl border border-border bg-card p-3 text-center text-sm font-medium shadow-sm transition hover:-translate-y-0.5 hover:shadow-md sm:p-4"
              >
                <span className={`flex h-11 w-11 items-center justify-center rounded-xl ${tile.tone}`}>
                  <Icon aria-hidden="true" className="h-6 w-6" />
                </span>
                {tile.label}
              </Link>
            </li>
          )
        })}
      </ul>
    </section>
  )
}

function AiPromoCard() {
  return (
    <section
      aria-labelledby="ai-promo-title"
      className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-teal-800 to-emerald-700 p-6 text-white shadow-sm"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex flex-col gap-2">
          <div className="flex items-center gap-2">
            <Sparkles aria-hidden="true" className="h-6 w-6" />
            <h2 id="ai-promo-title" className="text-xl font-bold">
              VetClube IA
            </h2>
            <Badge variant="warning">Novo</Badge>
          </div>
          <p className="max-w-xl text-sm text-teal-50">
            Tire dúvidas clínicas, revise protocolos e doses e prepare orientações para tutores com o assistente de inteligência artificial do VetClube.
          </p>
        </div>
        <Link to="/vetclube-ia" className={buttonClasses('outline', 'lg', 'border-white bg-white text-teal-900 hover:bg-teal-50')}>
          <MessageSquare aria-hidden="true" className="h-5 w-5" />
          Iniciar Chat
        </Link>
      </div>
    </section>
  )
}

function QuoteCard() {
  // Chosen once per visit to the page, not on every render.
  const [quote] = useState(() => pickQuote())
  return (
    <figure className="rounded-2xl border border-border bg-card p-6 shadow-sm">
      <QuoteIcon aria-hidden="true" className="mb-3 h-6 w-6 text-primary" />
      <blockquote className="text-lg font-medium italic leading-relaxed">“{quote.text}”</blockquote>
      {quote.author && <figcaption className="mt-3 text-sm text-muted-foreground">— {quote.author}</figcaption>}
    </figure>
  )
}

function InstallSection() {
  const { standalone, installed } = useInstallState()
  if (standalone || installed) return null
  return (
    <section aria-labelledby="install-title" className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-5 shadow-sm sm:flex-row sm:items-center">
      <Smartphone aria-hidden="true" className="h-10 w-10 shrink-0 text-primary" />
      <div className="flex flex-1 flex-col gap-1">
        <h2 id="install-title" className="font-semibold">
          Leve o VetClube no bolso
        </h2>
        <p className="text-sm text-muted-foreground">Instale o app para abrir mais rápido, direto da tela inicial, mesmo com internet instável.</p>
      </div>
      <InstallButton />
    </section>
  )
}

/**
 * The home while its data loads: the greeting (from the profile, or the
 * name this device kept) and the cards' places, laid out as index.html's
 * home shell, which painted the same before the app's JavaScript arrived.
 */
function HomeSkeleton({ name }: { name: string | undefined }) {
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-2">
        <Badge variant="secondary" className="self-start px-3 py-1 text-sm">
          {name ? `Bem-vindo(a), ${name}!` : 'Bem-vindo(a)!'}
        </Badge>
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Seu painel VetClube</h1>
      </header>
      <div role="status" className="flex flex-col gap-6">
        <span className="sr-only">Carregando...</span>
        <div aria-hidden="true" className="h-44 animate-pulse rounded-2xl bg-muted" />
        <div aria-hidden="true" className="h-64 animate-pulse rounded-2xl bg-muted" />
      </div>
    </div>
  )
}

export default function HomePage() {
  usePageTitle('Início')
  const { user } = useAuth()
  const profile = useMyProfile()
  const completeness = useProfileCompleteness()
  const { ready: checkinReady, CheckinCard } = useCheckinCard()
  const name = profile.data ? displayName(profile.data) : undefined
  // Kept for the next start's first paint (index.html's home shell).
  useEffect(() => {
    if (user && name) storeHomeGreeting({ user_id: user.id, name })
  }, [user, name])
  // One render with everything in place: content arriving piecemeal would push
  // the page around (layout shift) while the user starts reading.
  if (profile.isPending || completeness.isPending || !checkinReady) {
    return <HomeSkeleton name={name ?? readHomeGreeting(user?.id)} />
  }
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-col gap-2">
        <Badge variant="secondary" className="self-start px-3 py-1 text-sm">
          Bem-vindo(a), {name}!
        </Badge>
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Seu painel VetClube</h1>
      </header>
      <ProfileCompletenessBanner />
      {CheckinCard && <CheckinCard />}
      <QuickAccessGrid />
      <AiPromoCard />
      <div className="grid gap-4 md:grid-cols-2 xl:grid-cols-3">
        <LastCourseCard />
        <LatestVideoCard />
        <NextEventCard />
      </div>
      {/* Below the fold on most screens: cards arriving after the first render push nothing the user is reading. */}
      <DashboardCards />
      <QuoteCard />
      <InstallSection />
    </div>
  )
}
