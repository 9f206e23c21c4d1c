import { lazy, Suspense, type ComponentType } from 'react'

// The daily check-in card belongs to the points feature. It appears here as soon
// as src/features/checkin/CheckinCard.tsx exists (default export), without
// touching the home page.
const modules = import.meta.glob<{ default: ComponentType }>('/src/features/checkin/CheckinCard.tsx')
const load = Object.values(modules)[0]
const CheckinCard = load ? lazy(load) : null

export function CheckinSlot() {
  if (!CheckinCard) return null
  return (
    <Suspense fallback={<div aria-hidden="true" className="h-40 animate-pulse rounded-2xl bg-muted" />}>
      <CheckinCard />
    </Suspense>
  )
}
