import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { QueryClientProvider } from '@tanstack/react-query'
import { RouterProvider } from 'react-router/dom'
import { AppErrorBoundary } from '@/app/ErrorBoundary'
import { installGlobalErrorHandlers } from '@/app/globalErrors'
import { createAppRouter } from '@/app/router'
import { Toaster } from '@/components/ui/Toaster'
import { AuthProvider } from '@/features/auth/AuthProvider'
import { captureInstallEvents } from '@/features/pwa/install'
import { registerServiceWorker } from '@/features/pwa/registerServiceWorker'
import { queryClient } from '@/lib/queryClient'
import { warmUpSignedInStart } from '@/app/warmUp'
import { applyTheme, getTheme } from '@/lib/theme'
import './index.css'

captureInstallEvents()
installGlobalErrorHandlers()
applyTheme(getTheme())
registerServiceWorker()

warmUpSignedInStart()

const router = createAppRouter()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </QueryClientProvider>
      <Toaster />
    </AppErrorBoundary>
  </StrictMode>,
)
