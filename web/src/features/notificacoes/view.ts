import type { Notification } from './api'

/** The bell's badge: nothing at 0, the number up to 9, then '9+'. */
export function badgeLabel(unread: number): string | null {
  if (unread <= 0) return null
  return unread > 9 ? '9+' : String(unread)
}

/** 'Ana Souza', or null when no user is related (system notifications). */
export function relatedUserName(n: Notification): string | null {
  const u = n.related_user
  if (!u) return null
  const name = [u.first_name, u.last_name].filter((p) => p && p.trim()).join(' ').trim()
  return name || 'Usuário'
}

const relative = new Intl.RelativeTimeFormat('pt-BR', { numeric: 'auto' })
const dateFormat = new Intl.DateTimeFormat('pt-BR', { day: '2-digit', month: 'short' })

/** 'agora', 'há 5 minutos', 'há 2 horas', 'ontem', 'há 3 dias', then the date ('12 de mar.'). */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const then = new Date(iso).getTime()
  if (Number.isNaN(then)) return ''
  const seconds = Math.round((now - then) / 1000)
  if (seconds < 60) return 'agora'
  const minutes = Math.floor(seconds / 60)
  if (minutes < 60) return relative.format(-minutes, 'minute')
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return relative.format(-hours, 'hour')
  const days = Math.floor(hours / 24)
  if (days < 7) return relative.format(-days, 'day')
  return dateFormat.format(new Date(then))
}

/** What a click on a notification does. */
export type ClickAction = { kind: 'navigate'; to: string } | { kind: 'connection'; connectionId: string | null } | { kind: 'none' }

/**
 * Like or comment with a post: the post's comments on /community (the
 * community screen opens the modal from ?post=). Challenge: /desafios (the
 * /challenges is not a route). Connection: Aceitar / Recusar in place.
 * Anything else follows its in-app link.
 */
export function clickAction(n: Notification): ClickAction {
  if ((n.type === 'like' || n.type === 'comment') && n.related_post_id) {
    return { kind: 'navigate', to: `/community?post=${encodeURIComponent(n.related_post_id)}` }
  }
  if (n.type === 'challenge') return { kind: 'navigate', to: '/desafios' }
  if (n.type === 'connection') return { kind: 'connection', connectionId: n.data?.connection_id ?? null }
  if (n.link && n.link.startsWith('/') && !n.link.startsWith('//')) return { kind: 'navigate', to: n.link }
  return { kind: 'none' }
}
