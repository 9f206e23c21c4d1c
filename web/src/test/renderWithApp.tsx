import { render } from '@testing-library/react'
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from 'react-router'
import type { createMemoryRouter } from 'react-router'
import { AuthProvider } from '@/lib/session/AuthProvider'
import { createQueryClient } from '@/lib/queryClient'

/** Renders a memory router inside the app's providers (fresh query cache, real AuthProvider). */
export function renderWithApp(router: ReturnType<typeof createMemoryRouter>) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AuthProvider>
        <RouterProvider router={router} />
      </AuthProvider>
    </QueryClientProvider>,
  )
}
