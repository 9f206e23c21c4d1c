// Writes .br and .gz next to every text asset of dist/ once at build time; the
// Go server (core/httpapi/webapp.go) serves them to clients that accept them.
// Usage: node scripts/compress.mjs [dir] (default: web/dist; the backoffice
// build passes its own dist, so both apps share this one script).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const dist = process.argv[2] ? resolve(process.argv[2]) : new URL('../dist/', import.meta.url).pathname
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|map)$/
const MIN_BYTES = 1024

let files = 0
let before = 0
let after = 0
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) {
      walk(path)
      continue
    }
    if (!COMPRESSIBLE.test(name)) continue
    const data = readFileSync(path)
    if (data.length < MIN_BYTES) continue
    const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } })
    writeFileSync(`${path}.br`, br)
    writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }))
    files++
    before += data.length
    after += br.length
  }
}
walk(dist)
console.log(`compress: ${files} files, ${(before / 1024).toFixed(0)} KB → ${(after / 1024).toFixed(0)} KB brotli`)
