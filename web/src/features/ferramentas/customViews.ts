import { lazy, type ComponentType, type LazyExoticComponent } from 'react'
import { retryImport } from '@/lib/lazy'
import type { Tool } from './api'

/** What a custom tool view receives. */
export interface ToolViewProps {
  tool: Tool
}

// Every web/src/plugins/<id>/View.tsx is a custom tool view, split into its
// own chunk and loaded only when its page opens: adding one needs no edit here.
const modules = import.meta.glob<{ default: ComponentType<ToolViewProps> }>('/src/plugins/*/View.tsx')

const cache = new Map<string, LazyExoticComponent<ComponentType<ToolViewProps>>>()

/** The lazily loaded view of plugin id, or undefined when it has none. */
export function customView(id: string) {
  const load = modules[`/src/plugins/${id}/View.tsx`]
  if (!load) return undefined
  let view = cache.get(id)
  if (!view) {
    view = lazy(() => retryImport(load))
    cache.set(id, view)
  }
  return view
}
