export type Role = 'visitor' | 'user' | 'trial' | 'premium' | 'editor' | 'super_admin'

/** The signed-in user as GET /api/auth/session returns it. */
export interface SessionUser {
  id: string
  email: string
  provider: 'email' | 'google'
  roles: Role[] | string[]
  created_at: string
  /** Staff roles wait for this session to pass two-step verification. */
  two_step_pending?: boolean
}

export interface Session {
  user: SessionUser
}
