import { render } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router'
import { AuthProvider } from '@/lib/session/AuthProvider'
import { Toaster } from '@/components/ui/Toaster'
import { createQueryClient } from '@/lib/queryClient'

/** Renders routes at path inside the app's providers (the app's query client; `noRetry` drops its retries). */
export function renderRoutes(routes: RouteObject[], path: string, { noRetry = false } = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  const client = createQueryClient()
  if (noRetry) {
    const d = client.getDefaultOptions()
    client.setDefaultOptions({ queries: { ...d.queries, retry: false }, mutations: { ...d.mutations, retry: false } })
  }
  render(
    <QueryClientProvider client={client}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
      <Toaster />
    </QueryClientProvider>,
  )
  return { router, client }
}

/** jsdom has no <dialog> modal methods; the session check needs the CSRF cookie. */
export function installBrowserGaps() {
  HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
    this.open = true
  }
  HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
    this.open = false
    this.dispatchEvent(new Event('close'))
  }
  document.cookie = 'vc_csrf=tok123; Path=/'
}
