/**
 * Editors schedule in São Paulo's time (what the backoffice shows); the API
 * stores UTC. These convert between an <input type="datetime-local"> value
 * ("2026-11-24T09:00") in America/Sao_Paulo and an ISO instant.
 */
export const EDITORIAL_TIME_ZONE = 'America/Sao_Paulo'

const partsFormatter = new Intl.DateTimeFormat('en-US', {
  timeZone: EDITORIAL_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})

function zoneParts(instant: number): Record<string, number> {
  const out: Record<string, number> = {}
  for (const p of partsFormatter.formatToParts(new Date(instant))) {
    if (p.type !== 'literal') out[p.type] = Number(p.value)
  }
  return out
}

/** The zone's offset from UTC at instant, in milliseconds (São Paulo: −3 h). */
function offsetAt(instant: number): number {
  const p = zoneParts(instant)
  const asUTC = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second)
  return asUTC - Math.floor(instant / 1000) * 1000
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/

/** "2026-11-24T09:00" in São Paulo → "2026-11-24T12:00:00.000Z"; undefined when malformed. */
export function saoPauloToUTC(local: string): string | undefined {
  const m = LOCAL.exec(local)
  if (!m) return undefined
  const [y, mo, d, h, mi] = m.slice(1).map(Number)
  const wall = Date.UTC(y, mo - 1, d, h, mi)
  // Two passes settle the offset even on a day the zone's rules change.
  let instant = wall - offsetAt(wall)
  instant = wall - offsetAt(instant)
  return new Date(instant).toISOString()
}

/** An ISO instant → its "YYYY-MM-DDTHH:mm" wall time in São Paulo ('' when absent). */
export function utcToSaoPaulo(iso: string | undefined | null): string {
  if (!iso) return ''
  const t = Date.parse(iso)
  if (Number.isNaN(t)) return ''
  const p = zoneParts(t)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`
}

/** "24/11/2026 09:00" in São Paulo, for lists and the agenda. */
export function formatSaoPaulo(iso: string | undefined | null): string {
  if (!iso) return ''
  return new Intl.DateTimeFormat('pt-BR', { timeZone: EDITORIAL_TIME_ZONE, dateStyle: 'short', timeStyle: 'short' }).format(
    new Date(iso),
  )
}
