import { defineConfig } from 'vitest/config'
import react from '@vitejs/plugin-react'

// The Go server serves admin/dist under /backoffice/ (core/httpapi/webapp.go).
export default defineConfig({
  base: '/backoffice/',
  plugins: [react()],
  server: {
    proxy: { '/api': process.env.VETCLUBE_URL ?? 'http://127.0.0.1:8080' },
  },
  build: {
    chunkSizeWarningLimit: 1500,
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
})
