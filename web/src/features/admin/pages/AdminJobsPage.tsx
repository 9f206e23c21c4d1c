import BackofficeRedirectPage from './BackofficeRedirectPage'
import { hasRole, useAuth } from '@/lib/session/AuthProvider'

/**
 * /admin/vagas-de-empregos: jobs are managed in the backoffice. The editorial
 * team goes to the jobs resource (editing, workflow); a recruiter, who
 * manages no content, to the applications of the jobs assigned to them.
 */
export default function AdminJobsPage() {
  const { user } = useAuth()
  const editorial = ['editor', 'revisor', 'super_admin'].some((role) => hasRole(user, role))
  return (
    <BackofficeRedirectPage
      to={editorial ? '/backoffice/#/content/vagas' : '/backoffice/#/vagas-candidaturas'}
      roles={['editor', 'revisor', 'super_admin', 'recrutador']}
    />
  )
}
