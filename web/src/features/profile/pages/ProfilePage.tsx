import { Link } from 'react-router'
import { Pencil } from 'lucide-react'
import { buttonClasses } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { MyCertificates } from '@/features/cursos'
import { useMyProfile } from '../api'
import { missingProfileFields } from '../completeness'
import { CompletenessCard } from '../components/CompletenessCard'
import { ProfileDetails } from '../components/ProfileDetails'
import { SecuritySection } from '../components/SecuritySection'
import { DataSection } from '../components/DataSection'
import { formatCpf, formatPhone } from '../validators'

export const PROFILE_LOAD_ERROR = 'Erro ao carregar perfil do usuário'

/** /profile: the signed-in member's own profile, with completeness and private fields. */
export default function ProfilePage() {
  usePageTitle('Meu Perfil')
  const profile = useMyProfile()

  if (profile.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner label="Carregando perfil..." />
      </div>
    )
  }
  // A failed refresh never hides the profile already on screen.
  if (profile.isError && profile.data === undefined) {
    return (
      <div role="alert" className="mx-auto max-w-3xl py-10 text-center">
        <p className="font-medium">{PROFILE_LOAD_ERROR}</p>
        <button type="button" onClick={() => profile.refetch()} className={buttonClasses('outline', 'md', 'mt-4')}>
          Tentar Novamente
        </button>
      </div>
    )
  }

  const p = profile.data
  // The same rule as GET /api/profile/completeness, computed from the data on screen
  // so the two can never disagree on this page.
  const missing = missingProfileFields(p)
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-5 py-4">
      <div className="flex justify-end">
        <Link to="/profile/edit" className={buttonClasses('primary')}>
          <Pencil aria-hidden="true" className="h-4 w-4" />
          Editar perfil
        </Link>
      </div>
      <CompletenessCard profile={p} missing={missing} />
      <ProfileDetails profile={p} connectionsHref="/connections">
        <section aria-labelledby="profile-private" className="border-t border-border pt-4">
          <h2 id="profile-private" className="text-sm font-semibold uppercase tracking-wide text-muted-foreground">
            Dados privados (só você vê)
          </h2>
          <dl className="mt-2 grid gap-3 text-sm sm:grid-cols-2">
            <div>
              <dt className="text-muted-foreground">Email</dt>
              <dd className="font-medium break-all">{p.email}</dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Telefone</dt>
              <dd className="font-medium">
                {p.phone ? `${formatPhone(p.phone)}${p.has_whatsapp ? ' (WhatsApp)' : ''}` : 'Não informado'}
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">CPF</dt>
              <dd className="font-medium">{p.cpf ? formatCpf(p.cpf) : 'Não informado'}</dd>
            </div>
          </dl>
        </section>
        <p className="text-sm text-muted-foreground">
          Seu perfil público:{' '}
          <Link to={`/profile/${p.id}`} className="font-medium text-primary underline-offset-4 hover:underline">
            ver como os outros veem
          </Link>
        </p>
      </ProfileDetails>
      <SecuritySection />
      <DataSection />
      <MyCertificates />
    </div>
  )
}
