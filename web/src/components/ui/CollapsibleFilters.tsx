import { useId, useState, type ReactNode } from 'react'
import { ChevronDown, SlidersHorizontal } from 'lucide-react'
import { cn } from '@/lib/cn'

/**
 * A list's filters that fold away on phones (below 768 px) behind a
 * 'Filtros' button naming how many are active, so the first results show
 * above the fold; wider screens always show them.
 */
export function CollapsibleFilters({ active, children, className }: { active: number; children: ReactNode; className?: string }) {
  const [open, setOpen] = useState(false)
  const id = useId()
  return (
    <>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex h-10 items-center gap-2 self-start rounded-lg border border-border bg-card px-3 text-sm font-medium hover:bg-muted md:hidden"
      >
        <SlidersHorizontal aria-hidden="true" className="h-4 w-4" />
        {active > 0 ? `Filtros (${active})` : 'Filtros'}
        <ChevronDown aria-hidden="true" className={cn('h-4 w-4 transition-transform', open && 'rotate-180')} />
      </button>
      <div id={id} className={cn(className, !open && 'max-md:hidden')}>
        {children}
      </div>
    </>
  )
}
