import { fileURLToPath, URL } from 'node:url'
import { searchForWorkspaceRoot } from 'vite'
import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

// The session client admin/ shares with web/ (CSRF cookie, refresh and retry).
const sessionClient = fileURLToPath(new URL('../session-client', import.meta.url))

// The Go server serves admin/dist under /backoffice/ (core/httpapi/webapp.go).
export default defineConfig({
  base: '/backoffice/',
  plugins: [react()],
  resolve: {
    alias: { '@vetclube/session-client': `${sessionClient}/index.ts` },
  },
  server: {
    // The dev server serves files outside admin/ only when allowed.
    fs: { allow: [searchForWorkspaceRoot(process.cwd()), sessionClient] },
    proxy: { '/api': process.env.VETCLUBE_URL ?? 'http://127.0.0.1:8080' },
  },
  build: {
    chunkSizeWarningLimit: 1500,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', '../session-client/**/*.test.ts'],
  },
})
