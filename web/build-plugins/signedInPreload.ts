import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Plugin } from 'vite'

/**
 * A returning user's first screen is the home inside the layout, but those
 * chunks are lazy: the browser only learns of them once the main bundle has
 * run, one more round trip on a phone network. This appends to the built
 * /theme-init.js (a blocking script in <head>, so it runs before the bundle
 * is even requested) a few lines that, only when the session cookie exists
 * and the path is '/', add <link rel="modulepreload"> for those chunks and
 * the modules they import, and <link rel="preload" as="fetch"> for the API
 * reads the first screen waits on (the app's fetch then takes the preloaded
 * response). Visitors download nothing extra.
 */
export function signedInPreload(entries: string[], apiPaths: string[] = []): Plugin {
  let outDir = 'dist'
  let files: string[] = []
  return {
    name: 'vetclube-signed-in-preload',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir)
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk')
      const byFile = new Map(chunks.map((c) => [c.fileName, c]))
      const entry = chunks.find((c) => c.isEntry)
      const alreadyLoaded = new Set([entry?.fileName, ...(entry?.imports ?? [])])
      const wanted = new Set<string>()
      const visit = (fileName: string) => {
        if (wanted.has(fileName) || alreadyLoaded.has(fileName)) return
        wanted.add(fileName)
        for (const dep of byFile.get(fileName)?.imports ?? []) visit(dep)
      }
      for (const suffix of entries) {
        const chunk = chunks.find((c) => c.facadeModuleId?.replaceAll('\\', '/').endsWith(suffix))
        if (!chunk) this.error(`signedInPreload: no chunk for ${suffix}`)
        visit(chunk.fileName)
      }
      files = [...wanted].map((f) => '/' + f)
    },
    // After the public directory is copied and before vite-plugin-pwa hashes
    // the output for its precache list (it runs in closeBundle).
    writeBundle() {
      const target = join(outDir, 'theme-init.js')
      const snippet = `
// Added at build time (build-plugins/signedInPreload.ts).
;(function () {
  if (location.pathname !== '/' || !/(?:^|; )(?:__Host-)?vc_csrf=/.test(document.cookie)) return
  function add(rel, href, as) {
    var link = document.createElement('link')
    link.rel = rel
    link.href = href
    if (as) {
      link.as = as
      link.crossOrigin = 'use-credentials'
    }
    document.head.appendChild(link)
  }
  ;${JSON.stringify(files)}.forEach(function (href) { add('modulepreload', href) })
  ;${JSON.stringify(apiPaths)}.forEach(function (href) { add('preload', href, 'fetch') })
})()
`
      writeFileSync(target, readFileSync(target, 'utf8') + snippet)
    },
  }
}
