/// <reference types="vitest/config" />
import { fileURLToPath, URL } from 'node:url'
import { defineConfig, searchForWorkspaceRoot } from 'vite'
import react from '@vitejs/plugin-react'
import tailwindcss from '@tailwindcss/vite'
import { VitePWA } from 'vite-plugin-pwa'
import { signedInPreload } from './build-plugins/signedInPreload'
import { pushWorker } from './build-plugins/pushWorker'
import { pluginViews } from './build-plugins/pluginViews'

// The session client web/ shares with admin/ (CSRF cookie, refresh and retry).
const sessionClient = fileURLToPath(new URL('../session-client', import.meta.url))
// Each plugin's views, in its own folder: plugins/<id>/web/ (src/features/ferramentas/customViews.ts).
const pluginsDir = fileURLToPath(new URL('../plugins', import.meta.url))

export default defineConfig({
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      '@vetclube/session-client': `${sessionClient}/index.ts`,
    },
  },
  plugins: [
    pluginViews(pluginsDir, fileURLToPath(new URL('./src/main.tsx', import.meta.url))),
    react(),
    tailwindcss(),
    signedInPreload(
      ['src/app/layout/AppLayout.tsx', 'src/features/home/HomePage.tsx', 'src/features/checkin/CheckinCard.tsx'],
      ['/api/auth/session', '/api/profile', '/api/profile/completeness'],
    ),
    // /sw-push.js: push and notificationclick handlers, imported by the worker below.
    pushWorker('src/features/notificacoes/sw/pushWorker.ts'),
    VitePWA({
      // A fixed worker URL: browsers find an installed service worker by its URL,
      // so /sw-unified.js must never change; the Go server serves it no-cache.
      filename: 'sw-unified.js',
      strategies: 'generateSW',
      registerType: 'autoUpdate',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'VetClube',
        short_name: 'VetClube',
        description: 'Comunidade, cursos, ferramentas e IA para profissionais da medicina veterinária.',
        lang: 'pt-BR',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        background_color: '#ffffff',
        theme_color: '#0f766e',
        categories: ['education', 'medical', 'social'],
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
        // hls.js and its worker (~170 KB gzipped) are fetched when a player
        // first needs them, never installed with the app. Media (playlists,
        // segments under /uploads/) has no route here, so it always comes from
        // the network with the server's HTTP caching.
        globIgnores: ['**/hls-*.js', '**/hls.worker-*.js'],
        // Web Push (notifications feature): built by build-plugins/pushWorker.ts.
        importScripts: ['/sw-push.js'],
        navigateFallback: '/index.html',
        // Server-owned pages must reach the network: OAuth redirects, the dev
        // mailbox, the backoffice and uploaded files are not client routes.
        navigateFallbackDenylist: [/^\/api\//, /^\/backoffice/, /^\/uploads\//, /^\/dev\//, /^\/healthz/, /^\/readyz/],
        // Form tools' offline builds (src/features/ferramentas/offline.ts): kept
        // after first use so a calculator computes with no signal. The copy
        // answers at once and is refreshed in the background when online.
        runtimeCaching: [
          // The tools list (GET /api/tools), so the installed app opened cold
          // with no signal still lists the calculators and opens them. The
          // network answers first (a plan change shows at once); after 4 s, or
          // offline, the last list this device saw answers. The cache is
          // per-user data: src/lib/userCaches.ts deletes it on sign-out.
          {
            urlPattern: ({ url, request }) => url.origin === self.location.origin && url.pathname === '/api/tools' && request.method === 'GET',
            handler: 'NetworkFirst',
            options: {
              cacheName: 'vetclube-tools-list',
              networkTimeoutSeconds: 4,
              expiration: { maxEntries: 1 },
              cacheableResponse: { statuses: [200] },
            },
          },
          {
            urlPattern: ({ url }) =>
              url.origin === self.location.origin &&
              (/^\/api\/tools\/[^/]+\/offline\.wasm$/.test(url.pathname) || url.pathname === '/api/tools/offline/wasm_exec.js'),
            handler: 'StaleWhileRevalidate',
            options: {
              cacheName: 'vetclube-tools-offline',
              expiration: { maxEntries: 20 },
              cacheableResponse: { statuses: [200] },
            },
          },
        ],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
      devOptions: { enabled: false },
    }),
  ],
  build: {
    manifest: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // Icons and the small shared UI modules in one chunk each, instead of a
        // dozen sub-2 KB chunks that each cost a round trip on a phone network.
        codeSplitting: {
          groups: [
            { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/ },
            // The player (src/components/player) stays out of it: it loads with the pages that play.
            { name: 'ui', test: /(src[\\/](components(?![\\/]player[\\/])|lib)|session-client)[\\/]/ },
            // hls.js in a chunk of its own with a stable name, which the
            // service worker's precache leaves out (globIgnores above). Only
            // its ES build: the worker's ?url module is a string the player
            // imports statically, which would pull the chunk in with it.
            { name: 'hls', test: /node_modules[\\/]hls\.js[\\/]dist[\\/][^?]*\.mjs$/ },
          ],
        },
      },
    },
  },
  server: {
    // The dev server serves files outside web/ only when allowed.
    fs: { allow: [searchForWorkspaceRoot(process.cwd()), sessionClient, pluginsDir] },
    proxy: {
      '/api': 'http://127.0.0.1:8080',
      '/uploads': 'http://127.0.0.1:8080',
      '/dev': 'http://127.0.0.1:8080',
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', '../session-client/**/*.test.ts', '../plugins/*/web/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
  },
})
