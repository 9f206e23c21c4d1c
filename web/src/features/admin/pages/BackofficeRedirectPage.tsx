import { useEffect } from 'react'
import { useParams } from 'react-router'
import { Spinner } from '@/components/ui/Spinner'
import { hasRole, useAuth } from '@/lib/session/AuthProvider'
import { AdminAccessDenied } from '../components/AdminAccessDenied'
import { backofficeTarget } from '../sections'

const leaveTo = (url: string) => window.location.assign(url)

const EDITORIAL_ROLES = ['editor', 'revisor', 'super_admin']

/**
 * The /admin/cursos… screens live in the backoffice (courses,
 * categories and instructors are content types; the curriculum manager is the
 * courses plugin's view): this page sends editors there, to the same place.
 */
export default function BackofficeRedirectPage({
  navigate = leaveTo,
  to,
  roles = EDITORIAL_ROLES,
}: {
  navigate?: (url: string) => void
  to?: string
  /** Who is sent on (the editorial team unless a screen says otherwise). */
  roles?: readonly string[]
}) {
  const { user } = useAuth()
  const params = useParams()
  const allowed = roles.some((role) => hasRole(user, role))
  // A fixed backoffice page (the video manager, the media library), else the /admin/cursos mapping.
  const target = to ?? backofficeTarget(params['*'] ?? '')

  useEffect(() => {
    if (allowed) navigate(target)
  }, [allowed, navigate, target])

  if (!allowed) return <AdminAccessDenied />
  return (
    <div className="flex flex-col items-center gap-3 py-12 text-center">
      <Spinner label="Abrindo o backoffice..." />
      <p className="text-sm text-muted-foreground">
        Abrindo no backoffice… <a className="text-primary underline" href={target}>Abrir agora</a>
      </p>
    </div>
  )
}
