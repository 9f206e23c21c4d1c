import { Heart } from 'lucide-react'
import { cn } from '@/lib/cn'

/** A feature's favorite mutation: it shows the change at once and rolls it back, with its own message, on failure. */
export interface FavoriteMutation {
  isPending: boolean
  mutate: () => void
}

/** The favorite toggle (aria-pressed) of a course or a video, driven by its feature's mutation. */
export function FavoriteToggle({ toggle, title, favorite, className, withText = false }: { toggle: FavoriteMutation; title: string; favorite: boolean; className?: string; withText?: boolean }) {
  return (
    <button
      type="button"
      aria-pressed={favorite}
      aria-label={withText ? undefined : `Favoritar ${title}`}
      // Clicks during a request are ignored (the server toggles): the button keeps its focus.
      aria-disabled={toggle.isPending || undefined}
      onClick={() => {
        if (!toggle.isPending) toggle.mutate()
      }}
      className={cn(
        'inline-flex items-center justify-center gap-2 rounded-full border border-border bg-card/90 p-2 text-sm font-medium shadow-sm transition-colors hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring',
        withText && 'rounded-lg px-4',
        className,
      )}
    >
      <Heart aria-hidden="true" className={cn('h-5 w-5', favorite ? 'fill-rose-600 text-rose-600' : 'text-muted-foreground')} />
      {/* A toggle keeps its name; aria-pressed and the filled heart tell the state. */}
      {withText && 'Favoritar'}
    </button>
  )
}
