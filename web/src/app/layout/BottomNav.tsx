import { NavLink, useLocation } from 'react-router'
import { cn } from '@/lib/cn'
import { BOTTOM_NAV_ENTRIES, isEntryActive } from './nav'

/** Below 1024 px: Início, Feed, VetClube IA, Cursos, Perfil. */
export function BottomNav() {
  const { pathname } = useLocation()
  return (
    <nav
      aria-label="Navegação inferior"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-border bg-card pb-[env(safe-area-inset-bottom)] lg:hidden"
    >
      <ul className="grid h-16 grid-cols-5">
        {BOTTOM_NAV_ENTRIES.map((entry) => {
          const active = isEntryActive(entry.to, pathname)
          const Icon = entry.icon
          return (
            <li key={entry.to}>
              <NavLink
                to={entry.to}
                end={entry.to === '/'}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'flex h-full flex-col items-center justify-center gap-1 text-[0.7rem] font-medium',
                  active ? 'text-primary' : 'text-muted-foreground hover:text-foreground',
                )}
              >
                <Icon aria-hidden="true" className="h-5 w-5" />
                <span className="max-w-full truncate px-1">{entry.label}</span>
              </NavLink>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
