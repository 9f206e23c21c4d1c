// Prints the gzipped size of the JavaScript the browser loads before any lazy
// view: the entry script and its modulepreloads from dist/index.html.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

const dist = resolve(import.meta.dirname, '..', 'dist')
const html = readFileSync(join(dist, 'index.html'), 'utf8')
const files = [...html.matchAll(/(?:src|href)="\/backoffice\/(assets\/[^"]+\.js)"/g)].map((m) => m[1])
let total = 0
for (const file of files) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length
  total += size
  console.log(`${(size / 1024).toFixed(1).padStart(7)} KB  ${file}`)
}
console.log(`${(total / 1024).toFixed(1).padStart(7)} KB  initial JS, gzipped`)
