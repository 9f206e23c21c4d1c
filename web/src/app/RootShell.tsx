import { Outlet, ScrollRestoration } from 'react-router'
import { ConnectivityBanner } from '@/features/pwa/ConnectivityBanner'
import { InstallPrompt } from '@/features/pwa/InstallPrompt'

/** Wraps every route, signed in or not. */
export function RootShell() {
  return (
    <>
      <ConnectivityBanner />
      <Outlet />
      <InstallPrompt />
      <ScrollRestoration />
    </>
  )
}
