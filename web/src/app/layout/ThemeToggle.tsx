import { Moon, Sun } from 'lucide-react'
import { useTheme } from '@/lib/theme'
import { cn } from '@/lib/cn'

/** Label names the theme the click switches to: 'Modo Escuro' in light mode, 'Modo Claro' in dark mode. */
export function themeToggleLabel(theme: 'light' | 'dark'): string {
  return theme === 'dark' ? 'Modo Claro' : 'Modo Escuro'
}

export function ThemeToggle({ showLabel = false, className }: { showLabel?: boolean; className?: string }) {
  const { theme, toggleTheme } = useTheme()
  const label = themeToggleLabel(theme)
  const Icon = theme === 'dark' ? Sun : Moon
  return (
    <button
      type="button"
      onClick={() => toggleTheme()}
      aria-label={showLabel ? undefined : label}
      title={label}
      className={cn('inline-flex items-center gap-3 rounded-lg text-sm font-medium hover:bg-muted', showLabel ? 'h-9 w-full px-2' : 'h-10 w-10 justify-center', className)}
    >
      <Icon aria-hidden="true" className="h-5 w-5 shrink-0" />
      {showLabel && <span className="truncate">{label}</span>}
    </button>
  )
}
