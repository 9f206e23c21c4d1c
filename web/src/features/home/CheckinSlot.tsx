import { useEffect, useState, type ComponentType } from 'react'

// The daily check-in card belongs to the points feature. It appears here as soon
// as src/features/checkin/CheckinCard.tsx exists (default export), without
// touching the home page.
const modules = import.meta.glob<{ default: ComponentType }>('/src/features/checkin/CheckinCard.tsx')
const load = Object.values(modules)[0]
let loaded: ComponentType | null = null
// Started when the home chunk loads, in parallel with the home's own queries.
const loading: Promise<ComponentType | null> = load
  ? load()
      .then((m) => (loaded = m.default))
      .catch(() => null)
  : Promise.resolve(null)

/**
 * The check-in card component once its chunk is in (null when the feature is
 * absent or failed to load); `ready` lets the home page render everything in
 * one pass instead of pushing content down when the card arrives.
 */
export function useCheckinCard(): { ready: boolean; CheckinCard: ComponentType | null } {
  const [component, setComponent] = useState<ComponentType | null | undefined>(() => (load ? (loaded ?? undefined) : null))
  useEffect(() => {
    if (component !== undefined) return
    let active = true
    void loading.then((c) => active && setComponent(() => c))
    return () => {
      active = false
    }
  }, [component])
  return { ready: component !== undefined, CheckinCard: component ?? null }
}
