// Budget for the app shell: the JavaScript a first visit must download before
// anything renders (the entry chunk plus its static imports, never the lazy
// route chunks), gzipped. Fails `npm test` above the budget.
import { readFileSync, existsSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { join } from 'node:path'

const BUDGET_KB = 150
const dist = new URL('../dist/', import.meta.url).pathname
const manifestPath = join(dist, '.vite', 'manifest.json')
if (!existsSync(manifestPath)) {
  console.error(`bundle-size: ${manifestPath} is missing; run \`npm run build\` first`)
  process.exit(1)
}
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
const entry = Object.entries(manifest).find(([, chunk]) => chunk.isEntry && chunk.src === 'index.html')
if (!entry) {
  console.error('bundle-size: no index.html entry in the Vite manifest')
  process.exit(1)
}

const seen = new Set()
const files = []
const visit = (key) => {
  if (seen.has(key)) return
  seen.add(key)
  const chunk = manifest[key]
  if (!chunk) return
  if (chunk.file.endsWith('.js')) files.push(chunk.file)
  for (const dep of chunk.imports ?? []) visit(dep)
}
visit(entry[0])

let total = 0
for (const file of files) {
  const gz = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length
  total += gz
  console.log(`  ${(gz / 1024).toFixed(1).padStart(7)} KB  ${file}`)
}
const kb = total / 1024
console.log(`bundle-size: initial JS of the app shell = ${kb.toFixed(1)} KB gzipped (budget ${BUDGET_KB} KB, ${files.length} files)`)
if (kb > BUDGET_KB) {
  console.error(`bundle-size: over budget by ${(kb - BUDGET_KB).toFixed(1)} KB`)
  process.exit(1)
}
