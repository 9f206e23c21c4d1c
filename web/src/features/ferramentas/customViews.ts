import { lazy, type ComponentType, type LazyExoticComponent } from 'react'
import { retryImport } from '@/lib/lazy'
import type { Tool } from './api'

/**
 * What a custom tool view receives. Its page is /ferramentas/<slug>/*: the
 * view may route the rest of the address with react-router's <Routes>
 * (relative paths such as "resultado/:id").
 */
export interface ToolViewProps {
  tool: Tool
}

// Every plugins/<id>/web/View.tsx (in the plugin's own folder, beside its Go
// code) is a custom tool view, split into its own chunk and loaded only when
// its page opens: adding one needs no edit here.
const modules = import.meta.glob<{ default: ComponentType<ToolViewProps> }>('../../../../plugins/*/web/View.tsx')

/** The plugin ids that ship a custom view. */
export function customViewIds(): string[] {
  return Object.keys(modules).map((key) => key.split('/').at(-3) ?? '')
}

const cache = new Map<string, LazyExoticComponent<ComponentType<ToolViewProps>>>()

/** The lazily loaded view of plugin id, or undefined when it has none. */
export function customView(id: string) {
  const load = modules[`../../../../plugins/${id}/web/View.tsx`]
  if (!load) return undefined
  let view = cache.get(id)
  if (!view) {
    view = lazy(() => retryImport(load))
    cache.set(id, view)
  }
  return view
}
