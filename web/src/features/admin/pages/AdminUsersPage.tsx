import { useEffect } from 'react'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { hasRole, useAuth } from '@/lib/session/AuthProvider'
import { AdminAccessDenied } from '../components/AdminAccessDenied'
import { BACKOFFICE_USERS_URL } from '../sections'

// Module-level so the effect below sees the same function on every render.
const leaveTo = (url: string) => window.location.assign(url)

/** /admin/usuarios: user management lives in the backoffice, so go there. */
export default function AdminUsersPage({ navigate = leaveTo }: { navigate?: (url: string) => void }) {
  usePageTitle('Usuários')
  const { user } = useAuth()
  const allowed = hasRole(user, 'super_admin')

  useEffect(() => {
    if (allowed) navigate(BACKOFFICE_USERS_URL)
  }, [allowed, navigate])

  if (!allowed) return <AdminAccessDenied />
  return (
    <div className="flex flex-col items-center gap-3 py-12 text-center">
      <Spinner label="Abrindo o backoffice..." />
      <p className="text-sm text-muted-foreground">
        Abrindo a gestão de usuários no backoffice… <a className="text-primary underline" href={BACKOFFICE_USERS_URL}>Abrir agora</a>
      </p>
    </div>
  )
}
