import { cn } from '@/lib/cn'
import { typeBadgeClass } from '../format'

/** The event type in its colour (Workshop blue, Intensivo purple, Congresso green, others gray). */
export function EventTypeBadge({ type, className }: { type: string; className?: string }) {
  return (
    <span className={cn('inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold', typeBadgeClass(type), className)}>
      {type || 'Evento'}
    </span>
  )
}
