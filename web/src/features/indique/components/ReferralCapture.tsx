import { useEffect, useRef } from 'react'
import { useLocation } from 'react-router'
import { toast } from '@/components/ui/toast'
import { referralFromQuery } from '@/lib/referral'
import { useAuth } from '@/lib/session/AuthProvider'
import { captureReferral, processKeptReferral } from '../capture'

/**
 * On every page: keeps a ?ref= / ?referral= code and tracks its click; once
 * signed in (a Google sign-up returns here), sends the kept code to
 * process-referral-signup.
 */
export function ReferralCapture() {
  const location = useLocation()
  const { isAuthenticated, loading } = useAuth()
  const processing = useRef(false)

  useEffect(() => {
    const code = referralFromQuery(location.search)
    if (code) void captureReferral(code)
  }, [location.search])

  useEffect(() => {
    if (loading || !isAuthenticated || processing.current) return
    processing.current = true
    void processKeptReferral().then((message) => {
      if (message) toast.success(message)
    })
  }, [isAuthenticated, loading])

  return null
}
