// A referral code from ?ref or ?referral (or the /i/{code} link) is kept
// on the device for 30 days until sign-up sends it, so a visitor who
// browses around first still gets credited. The first code wins: a second
// link opened within those 30 days does not replace it. Codes saved by
// older builds (a bare string) are read as saved now.

export const REFERRAL_STORAGE_KEY = 'vetclube_referral_code'
export const REFERRAL_TTL_MS = 30 * 24 * 60 * 60 * 1000
const MAX_REFERRAL_LENGTH = 64
const DEVICE_KEY = 'vetclube_device_id'
const SESSION_KEY = 'vetclube_session_id'
const CLICKED_KEY = 'vetclube_referral_clicked'

interface Stored {
  code: string
  at: number
}

function readStored(now: number): Stored | null {
  let raw: string | null
  try {
    raw = localStorage.getItem(REFERRAL_STORAGE_KEY)
  } catch {
    return null
  }
  if (!raw) return null
  let s: Stored
  try {
    const parsed = JSON.parse(raw) as Partial<Stored>
    if (typeof parsed?.code !== 'string' || typeof parsed.at !== 'number') throw new Error('old format')
    s = { code: parsed.code, at: parsed.at }
  } catch {
    // An older build stored the bare code.
    s = { code: raw, at: now }
    write(s)
  }
  if (now - s.at > REFERRAL_TTL_MS) {
    clearReferralCode()
    return null
  }
  return s
}

function write(s: Stored): boolean {
  try {
    localStorage.setItem(REFERRAL_STORAGE_KEY, JSON.stringify(s))
    return true
  } catch {
    return false
  }
}

/** The code in a query string (?ref first, then ?referral), or null. */
export function referralFromQuery(search: string | URLSearchParams): string | null {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search
  const code = (params.get('ref') ?? params.get('referral') ?? '').trim()
  return code !== '' && code.length <= MAX_REFERRAL_LENGTH ? code : null
}

/**
 * Keeps `code` unless another one, saved less than 30 days ago, is kept
 * already (first click wins); returns the code to send at sign-up.
 */
export function keepReferralCode(code: string | null, now = Date.now()): string | null {
  const stored = readStored(now)
  if (stored) return stored.code
  if (code === null) return null
  if (!write({ code, at: now })) return code // storage off (private mode): this page's sign-up still sends it
  return code
}

/** Stores the code found in the query string, if any; returns the code to send at sign-up. */
export function captureReferralCode(search: string | URLSearchParams, now = Date.now()): string | null {
  return keepReferralCode(referralFromQuery(search), now)
}

export function storedReferralCode(now = Date.now()): string | null {
  return readStored(now)?.code ?? null
}

export function clearReferralCode(): void {
  try {
    localStorage.removeItem(REFERRAL_STORAGE_KEY)
  } catch {
    // Nothing stored when storage is unavailable.
  }
}

function randomId(): string {
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}

function getOrCreate(storage: Storage, key: string): string {
  try {
    const existing = storage.getItem(key)
    if (existing && /^[A-Za-z0-9_-]{8,64}$/.test(existing)) return existing
    const id = randomId()
    storage.setItem(key, id)
    return id
  } catch {
    return randomId()
  }
}

/** This device's first-party id (kept in localStorage), for the referral checks. */
export function deviceId(): string {
  return getOrCreate(localStorage, DEVICE_KEY)
}

/** This browser session's id (sessionStorage: one per tab session). */
export function browserSessionId(): string {
  return getOrCreate(sessionStorage, SESSION_KEY)
}

/** Whether a click on `code` was already sent in this browser session; marks it sent. */
export function firstClickThisSession(code: string): boolean {
  try {
    const sent = (sessionStorage.getItem(CLICKED_KEY) ?? '').split(',').filter(Boolean)
    if (sent.includes(code)) return false
    sessionStorage.setItem(CLICKED_KEY, [...sent, code].join(','))
    return true
  } catch {
    return true // the server's per-session key still counts it once
  }
}
