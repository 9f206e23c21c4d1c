import { createHmac } from 'node:crypto'

/**
 * The development seed's staff accounts are enrolled in two-step
 * verification with fixed secrets (core/app/seed/seed.go): the browser tests
 * compute their codes here, RFC 6238 (SHA-1, 6 digits, 30 s).
 */
export const DEV_TOTP: Record<string, string> = {
  'admin@vetclube.dev': 'VETCLUBEADMINDEV',
  'revisor@vetclube.dev': 'VETCLUBEREVISORD',
}

function base32(secret: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const ch of secret.replace(/=+$/, '').toUpperCase()) {
    const v = alphabet.indexOf(ch)
    if (v < 0) throw new Error(`not base32: ${ch}`)
    bits += v.toString(2).padStart(5, '0')
  }
  const bytes: number[] = []
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2))
  return Buffer.from(bytes)
}

/** The TOTP code of secret at time ms (default now). */
export function totp(secret: string, ms = Date.now()): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(ms / 1000 / 30)))
  const h = createHmac('sha1', base32(secret)).update(counter).digest()
  const off = h.readUInt8(h.length - 1) & 0xf
  const n = h.readUInt32BE(off) & 0x7fffffff
  return String(n % 1_000_000).padStart(6, '0')
}

// The server refuses a code of a step it already accepted (replay): a test
// signing the same account in twice within 30 s waits for the next step.
const lastStep = new Map<string, number>()

/** A fresh code for a seeded staff account, waiting for a new step if this process used the current one already. */
export async function devTOTP(email: string): Promise<string> {
  const secret = DEV_TOTP[email]
  if (!secret) throw new Error(`no development TOTP secret for ${email}`)
  for (;;) {
    const step = Math.floor(Date.now() / 30_000)
    if (lastStep.get(email) !== step) {
      lastStep.set(email, step)
      return totp(secret)
    }
    await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 50))
  }
}
