// Regenerates the PWA icons in public/icons from the paw-print mark.
// Renders with Debian's Chromium through Playwright (already a dev dependency);
// the PNGs are committed, so builds never need this.
import { chromium } from '@playwright/test'

const paw = (scale, offset) => `<g fill="#fff" transform="translate(${offset} ${offset}) scale(${scale})">
  <ellipse cx="20" cy="24" rx="5" ry="7"/><ellipse cx="32" cy="18" rx="5" ry="7"/><ellipse cx="44" cy="24" rx="5" ry="7"/>
  <path d="M32 30c-9 0-16 9-16 15 0 4 3 6 7 6 3 0 6-2 9-2s6 2 9 2c4 0 7-2 7-6 0-6-7-15-16-15z"/></g>`

// "any" icons: rounded tile. Maskable: full bleed, mark inside the 80% safe zone.
const rounded = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0f766e"/>${paw(1, 0)}</svg>`
const maskable = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#0f766e"/>${paw(0.7, 9.6)}</svg>`

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
const page = await browser.newPage()
const render = async (svg, size, out) => {
  await page.setViewportSize({ width: size, height: size })
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`)
  await page.screenshot({ path: out, omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } })
  console.log('wrote', out)
}
await render(rounded, 192, 'public/icons/icon-192.png')
await render(rounded, 512, 'public/icons/icon-512.png')
await render(maskable, 512, 'public/icons/maskable-512.png')
await render(maskable, 180, 'public/icons/apple-touch-icon.png')
await browser.close()
