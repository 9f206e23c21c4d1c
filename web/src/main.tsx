import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { PersistQueryClientProvider } from '@tanstack/react-query-persist-client'
import { RouterProvider } from 'react-router/dom'
import { AppErrorBoundary } from '@/app/ErrorBoundary'
import { installGlobalErrorHandlers } from '@/app/globalErrors'
import { createAppRouter } from '@/app/router'
import { Toaster } from '@/components/ui/Toaster'
import { AuthProvider } from '@/lib/session/AuthProvider'
import { captureInstallEvents } from '@/features/pwa/install'
import { registerServiceWorker } from '@/features/pwa/registerServiceWorker'
import { PERSISTED_MAX_AGE_MS, localStoragePersister, revalidateRestored, shouldPersistQuery } from '@/lib/persistence'
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
      <PersistQueryClientProvider
        client={queryClient}
        persistOptions={{
          persister: localStoragePersister(),
          maxAge: PERSISTED_MAX_AGE_MS,
          // This module's hashed file name changes with every build: data
          // shaped by an older build is never restored into a newer one.
          buster: new URL(import.meta.url).pathname,
          dehydrateOptions: { shouldDehydrateQuery: shouldPersistQuery },
        }}
        onSuccess={() => revalidateRestored(queryClient)}
      >
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </PersistQueryClientProvider>
      <Toaster />
    </AppErrorBoundary>
  </StrictMode>,
)
