import path from 'node:path'
import type { Plugin } from 'vite'

// A plugin's views live in its own folder (plugins/<id>/web/), outside this
// package, where no node_modules is found by walking up. Their bare imports
// (react, @tanstack/react-query, lucide-react…) resolve as if imported from
// the app itself: a view gets exactly the libraries the PWA ships, in the
// one copy the app uses (two copies of React would break hooks).
export function pluginViews(pluginsDir: string, appEntry: string): Plugin {
  const prefix = path.resolve(pluginsDir) + path.sep
  return {
    name: 'vetclube-plugin-views',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !path.resolve(importer).startsWith(prefix)) return null
      if (source.startsWith('.') || source.startsWith('/') || source.startsWith('\0') || source.startsWith('@/')) return null
      return this.resolve(source, appEntry, { ...options, skipSelf: true })
    },
  }
}
