import { ApiError } from '@/lib/api'
import {
  browserSessionId,
  clearReferralCode,
  deviceId,
  firstClickThisSession,
  keepReferralCode,
  storedReferralCode,
} from '@/lib/referral'
import { processReferralSignup, trackReferralClick } from './api'

/**
 * A referral link was opened (?ref=, ?referral= or /i/{code}): the code is
 * kept on the device (first code wins for 30 days) and the click is sent
 * once per browser session and code (the server deduplicates too).
 */
export async function captureReferral(code: string | null, send = trackReferralClick): Promise<string | null> {
  if (code === null) return storedReferralCode()
  const kept = keepReferralCode(code)
  if (firstClickThisSession(code)) {
    try {
      await send(code, browserSessionId(), deviceId())
    } catch {
      // An unknown code or no network: the click is not counted, nothing else changes.
    }
  }
  return kept
}

/**
 * After a Google sign-in the code kept on the device is sent once: it binds
 * an account created moments ago (the server refuses older ones). The code
 * is dropped after any definitive answer. Returns the message to show when
 * the referral was recorded.
 */
export async function processKeptReferral(send = processReferralSignup): Promise<string | null> {
  const code = storedReferralCode()
  if (!code) return null
  try {
    const res = await send(code, deviceId())
    clearReferralCode()
    return res.recorded ? res.message : null
  } catch (err) {
    if (err instanceof ApiError && err.status >= 400 && err.status < 500) clearReferralCode()
    return null
  }
}
