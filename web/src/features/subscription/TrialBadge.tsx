import { Link } from 'react-router'
import { Sparkles } from 'lucide-react'
import { cn } from '@/lib/cn'
import { useSubscription } from './api'
import { trialLabel } from './trial'

/**
 * "Premium grátis: 5 dias restantes", linked to the plans, while the
 * account's trial runs (the server counts the days, rounded up). Nothing for
 * premium subscribers, expired trials or while the subscription is unknown.
 */
export function TrialBadge({ className, onNavigate }: { className?: string; onNavigate?: () => void }) {
  const sub = useSubscription().data
  if (!sub?.trial_active || sub.days_left < 1) return null
  return (
    <Link
      to="/pricing"
      onClick={onNavigate}
      className={cn(
        'inline-flex items-center gap-1.5 rounded-full bg-violet-100 px-3 py-1.5 text-sm font-semibold text-violet-900 hover:bg-violet-200 dark:bg-violet-900/40 dark:text-violet-100',
        className,
      )}
    >
      <Sparkles aria-hidden="true" className="h-4 w-4 shrink-0" />
      <span>{trialLabel(sub.days_left)}</span>
    </Link>
  )
}
