import type { LucideIcon } from 'lucide-react'
import { Briefcase, CalendarDays, Crown, GraduationCap, Home, Gift, Lock, MessageSquare, Newspaper, Shield, Sparkles, Trophy, UserPlus, Users, User, Wrench } from 'lucide-react'

export interface NavEntry {
  label: string
  to: string
  icon: LucideIcon
  /** Hidden for premium subscribers. */
  hideForPremium?: boolean
  /** Shown only to super admins. */
  superAdminOnly?: boolean
}

/** Sidebar entries, in menu order. */
export const SIDEBAR_ENTRIES: NavEntry[] = [
  { label: 'Início', to: '/', icon: Home },
  { label: 'VetClube IA', to: '/vetclube-ia', icon: Sparkles },
  { label: 'Oportunidades', to: '/oportunidades', icon: Briefcase },
  { label: 'Conteúdos Exclusivos', to: '/conteudos-exclusivos', icon: Lock },
  { label: 'Cursos', to: '/cursos', icon: GraduationCap },
  { label: 'Desafios', to: '/desafios', icon: Trophy },
  { label: 'Ferramentas', to: '/ferramentas', icon: Wrench },
  { label: 'Indique e Ganhe', to: '/indique-e-ganhe', icon: Gift },
  { label: 'Planos', to: '/pricing', icon: Crown, hideForPremium: true },
  { label: 'Admin', to: '/admin', icon: Shield, superAdminOnly: true },
]

/**
 * The community's sections, in a group of their own below the menu's entries
 * (which stay as they are): the feed, news, events and connections have no
 * other way in from every screen. The phone's drawer shows the same group.
 */
export const COMMUNITY_ENTRIES: NavEntry[] = [
  { label: 'Feed', to: '/community', icon: Users },
  { label: 'Notícias', to: '/noticias-veterinarias', icon: Newspaper },
  { label: 'Eventos', to: '/eventos', icon: CalendarDays },
  { label: 'Conexões', to: '/connections', icon: UserPlus },
]

/** Bottom navigation below 1024 px: the five most used destinations. */
export const BOTTOM_NAV_ENTRIES: NavEntry[] = [
  { label: 'Início', to: '/', icon: Home },
  { label: 'Feed', to: '/community', icon: Users },
  { label: 'VetClube IA', to: '/vetclube-ia', icon: MessageSquare },
  { label: 'Cursos', to: '/cursos', icon: GraduationCap },
  { label: 'Perfil', to: '/profile', icon: User },
]

/** An entry is active when the path starts with its route; Home only on exactly '/'. */
export function isEntryActive(entryPath: string, pathname: string): boolean {
  if (entryPath === '/') return pathname === '/'
  return pathname.startsWith(entryPath)
}

export function visibleSidebarEntries({ isPremium, isSuperAdmin }: { isPremium: boolean; isSuperAdmin: boolean }): NavEntry[] {
  return SIDEBAR_ENTRIES.filter((e) => !(e.hideForPremium && isPremium) && !(e.superAdminOnly && !isSuperAdmin))
}
