import { Outlet, ScrollRestoration } from 'react-router'
import { ConnectivityBanner } from '@/features/pwa/ConnectivityBanner'
import { InstallPrompt } from '@/features/pwa/InstallPrompt'
import { ReferralCapture } from '@/features/indique'

/** Wraps every route, signed in or not. */
export function RootShell() {
  return (
    <>
      <ConnectivityBanner />
      <ReferralCapture />
      <Outlet />
      <InstallPrompt />
      <ScrollRestoration />
    </>
  )
}
