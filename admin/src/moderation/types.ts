/** A member as the moderation queue shows them (null: the account is gone). */
export interface Person {
  id: string
  first_name: string
  last_name: string
  avatar_url: string | null
  title: string | null
  verified: boolean
}

export type ModerationState = 'publicado' | 'oculto' | 'removido'
export type ModerationAction = 'hide' | 'restore' | 'remove'

/** One row of GET /api/admin/moderation (core/moderation.Row). */
export interface ModerationRow {
  /** "<target_type>:<target_id>" */
  id: string
  target_type: 'post' | 'comment'
  target_id: string
  state: ModerationState
  excerpt: string
  item_id: string | null
  /** the PWA path showing the post ('' once removed) */
  link: string
  author: Person | null
  reports: { reporter: Person | null; reason: string; created_at: string }[]
  report_count: number
  /** reports since the last decision */
  open_reports: number
  author_history: { posts: number; comments: number; hidden: number; removed: number }
  log: {
    action: ModerationAction
    from_state: ModerationState
    to_state: ModerationState
    actor: Person | null
    reason: string
    created_at: string
  }[]
  created_at: string
  updated_at: string
}

/**
 * The decisions a moderator may take in a state, as the server's state
 * machine allows them: publicado → oculto | removido, oculto → publicado |
 * removido; removido is final.
 */
export function actionsFor(state: ModerationState): ModerationAction[] {
  switch (state) {
    case 'publicado':
      return ['hide', 'remove']
    case 'oculto':
      return ['restore', 'remove']
    default:
      return []
  }
}

/** The label of a member, with the app's fallback for a missing account. */
export function personName(p: Person | null | undefined): string {
  if (!p) return 'Usuário VetClube'
  return `${p.first_name} ${p.last_name}`.trim() || 'Usuário VetClube'
}

export const STATE_CHOICES = [
  { id: 'oculto', name: 'vetclube.moderation.state_oculto' },
  { id: 'publicado', name: 'vetclube.moderation.state_publicado' },
  { id: 'removido', name: 'vetclube.moderation.state_removido' },
]

export const TYPE_CHOICES = [
  { id: 'post', name: 'vetclube.moderation.type_post' },
  { id: 'comment', name: 'vetclube.moderation.type_comment' },
]
