// A referral code from ?ref or ?referral is kept locally until sign-up
// sends it, so a visitor who browses around first still gets credited.

export const REFERRAL_STORAGE_KEY = 'vetclube_referral_code'
const MAX_REFERRAL_LENGTH = 64

/** Stores the code found in the query string, if any; returns the code to send at sign-up. */
export function captureReferralCode(search: string | URLSearchParams): string | null {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search
  const code = (params.get('ref') ?? params.get('referral') ?? '').trim()
  const valid = code !== '' && code.length <= MAX_REFERRAL_LENGTH
  if (valid) {
    try {
      localStorage.setItem(REFERRAL_STORAGE_KEY, code)
    } catch {
      // Storage disabled (private mode): the code still goes with this page's sign-up.
      return code
    }
  }
  return storedReferralCode() ?? (valid ? code : null)
}

export function storedReferralCode(): string | null {
  try {
    return localStorage.getItem(REFERRAL_STORAGE_KEY)
  } catch {
    return null
  }
}

export function clearReferralCode(): void {
  try {
    localStorage.removeItem(REFERRAL_STORAGE_KEY)
  } catch {
    // Nothing stored when storage is unavailable.
  }
}
