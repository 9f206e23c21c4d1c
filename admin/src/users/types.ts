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
export const GRANTABLE_ROLES = ['editor', 'super_admin'] as const
