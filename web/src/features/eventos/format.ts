import type { EventItem } from './api'

/** Badge colours by event type: Workshop blue, Intensivo purple, Congresso green, any other gray. */
export function typeBadgeClass(type: string): string {
  switch (type) {
    case 'Workshop':
      return 'bg-blue-100 text-blue-800 dark:bg-blue-900/60 dark:text-blue-100'
    case 'Intensivo':
      return 'bg-purple-100 text-purple-800 dark:bg-purple-900/60 dark:text-purple-100'
    case 'Congresso':
      return 'bg-green-100 text-green-800 dark:bg-green-900/60 dark:text-green-100'
    default:
      return 'bg-gray-100 text-gray-800 dark:bg-gray-800 dark:text-gray-100'
  }
}

const MONTHS = ['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro']

/** 'dd de MMMM' in pt-BR from a YYYY-MM-DD date: '05 de dezembro'. */
export function formatEventDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (!m) return ''
  const month = Number(m[2])
  if (month < 1 || month > 12) return ''
  return `${m[3]} de ${MONTHS[month - 1]}`
}

/** HH:mm from 'HH:mm' or 'HH:mm:ss'. */
export function formatEventTime(time: string): string {
  const m = /^(\d{2}):(\d{2})/.exec(time)
  return m ? `${m[1]}:${m[2]}` : ''
}

/** The month of a YYYY-MM value as 'dezembro de 2026' (month filter options). */
export function monthLabel(month: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month)
  if (!m) return ''
  return `${MONTHS[Number(m[2]) - 1]} de ${m[1]}`
}

/** The place line of a card: the location, or 'Online'. */
export function placeLabel(e: Pick<EventItem, 'online' | 'location'>): string {
  return e.online ? 'Online' : e.location
}

/** Seats left, 'Esgotado' when none, '' when unlimited. */
export function seatsLabel(e: Pick<EventItem, 'seats_left'>): string {
  if (e.seats_left === null || e.seats_left === undefined) return ''
  if (e.seats_left <= 0) return 'Esgotado'
  return e.seats_left === 1 ? '1 vaga restante' : `${e.seats_left} vagas restantes`
}

/** The browser's time zone ('' when it cannot say). */
export function viewerZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? ''
  } catch {
    return ''
  }
}

/**
 * The start in the viewer's zone when it differs from the event's
 * ('19:30 no seu fuso (America/Manaus), 05 de dezembro'); '' when the zones agree.
 */
export function inViewerZone(e: Pick<EventItem, 'starts_at' | 'time_zone'>, zone = viewerZone()): string {
  if (!zone || zone === e.time_zone) return ''
  const t = new Date(e.starts_at)
  if (Number.isNaN(t.getTime())) return ''
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(t)
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  const date = formatEventDate(`${get('year')}-${get('month')}-${get('day')}`)
  const localTime = formatEventTime(`${get('hour')}:${get('minute')}`)
  return localTime && date ? `${localTime} no seu fuso (${zone}), ${date}` : ''
}

/** A short local moment: '05/12 às 19:30' in the given zone. */
export function shortMoment(iso: string, zone?: string): string {
  const t = new Date(iso)
  if (Number.isNaN(t.getTime())) return ''
  const fmt = new Intl.DateTimeFormat('pt-BR', { timeZone: zone, day: '2-digit', month: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
  const parts = fmt.formatToParts(t)
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return `${get('day')}/${get('month')} às ${get('hour')}:${get('minute')}`
}

/** The event types offered by the filter (the plugin's options). */
export const EVENT_TYPES = ['Workshop', 'Intensivo', 'Congresso', 'Palestra', 'Webinar', 'Outro']
