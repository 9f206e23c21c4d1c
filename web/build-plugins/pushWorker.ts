import { resolve } from 'node:path'
import { build, type Plugin } from 'vite'

/**
 * Builds the service worker's push handlers (web/src/features/notificacoes/sw)
 * into one classic script, `/sw-push.js`, that the generated /sw-unified.js
 * loads with importScripts. The precache, offline fallback and runtime
 * caching stay workbox's generated code; only push, notificationclick and the
 * badge message are ours. A separate build because importScripts needs a
 * self-contained script, never an ES module sharing chunks with the app.
 */
export function pushWorker(entry: string, fileName = 'sw-push.js'): Plugin {
  let root = process.cwd()
  return {
    name: 'vetclube-push-worker',
    apply: 'build',
    configResolved(config) {
      root = config.root
    },
    async generateBundle() {
      const out = await build({
        configFile: false,
        root,
        logLevel: 'warn',
        build: {
          write: false,
          target: 'es2020',
          minify: true,
          lib: { entry: resolve(root, entry), formats: ['iife'], name: 'vetclubePush', fileName: () => fileName },
        },
      })
      const outputs = (Array.isArray(out) ? out : [out]) as { output: { type: string; code?: string }[] }[]
      const chunk = outputs.flatMap((o) => o.output).find((o) => o.type === 'chunk')
      if (!chunk?.code) throw new Error('push worker: the build produced no script')
      this.emitFile({ type: 'asset', fileName, source: chunk.code })
    },
  }
}
