/** An account as GET /api/admin/users returns it (core/roles.AdminUser). */
export interface AdminUser {
  id: string
  email: string
  first_name: string
  last_name: string
  roles: string[]
  email_confirmed: boolean
  created_at: string
}

/** Roles an administrator may grant (core/roles.Grantable). */
export const GRANTABLE_ROLES = ['editor', 'revisor', 'moderador', 'recrutador', 'super_admin'] as const

/** One line of an account's role history (core/roles.RoleChange). */
export interface RoleChange {
  role: string
  change: 'granted' | 'revoked'
  /** null: the command line or the dev seed. */
  actor_email: string | null
  at: string
}
