import { cn } from '@/lib/cn'

/** Paw-print mark plus the wordmark; decorative when used inside a labelled link. */
export function Logo({ className, compact = false, wordmarkClassName }: { className?: string; compact?: boolean; wordmarkClassName?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-bold tracking-tight', className)}>
      <svg aria-hidden="true" viewBox="0 0 64 64" className="h-8 w-8 shrink-0">
        <rect width="64" height="64" rx="14" fill="#0f766e" />
        <g fill="#fff">
          <ellipse cx="20" cy="24" rx="5" ry="7" />
          <ellipse cx="32" cy="18" rx="5" ry="7" />
          <ellipse cx="44" cy="24" rx="5" ry="7" />
          <path d="M32 30c-9 0-16 9-16 15 0 4 3 6 7 6 3 0 6-2 9-2s6 2 9 2c4 0 7-2 7-6 0-6-7-15-16-15z" />
        </g>
      </svg>
      {!compact && (
        <span className={cn('text-lg', wordmarkClassName)}>
          Vet<span className="text-primary">Clube</span>
        </span>
      )}
    </span>
  )
}
