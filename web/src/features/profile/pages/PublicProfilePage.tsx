import { Link, useParams } from 'react-router'
import { buttonClasses } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { ApiError } from '@/lib/api'
import { useAuth } from '@/lib/session/AuthProvider'
import { usePublicProfile } from '../api'
import { ProfileDetails } from '../components/ProfileDetails'
import { displayName } from '@/lib/names'
import { ConnectButton, MutualConnections } from '@/features/conexoes'
import { BlockUserButton, RecentPosts } from '@/features/comunidade'

/** /profile/:userId — public to everyone, never shows email, phone or CPF (the API omits them). */
export default function PublicProfilePage() {
  const { userId = '' } = useParams()
  const { user } = useAuth()
  const profile = usePublicProfile(userId)
  usePageTitle(profile.data ? displayName(profile.data) : 'Perfil')

  let content
  if (profile.isPending) {
    content = (
      <div className="flex justify-center py-16">
        <Spinner label="Carregando perfil..." />
      </div>
    )
  } else if (profile.isError) {
    const notFound = profile.error instanceof ApiError && profile.error.status === 404
    content = (
      <div className="py-10 text-center">
        <h1 className="text-xl font-semibold" role="alert">
          {notFound ? 'Usuário não encontrado' : 'Erro ao carregar perfil do usuário'}
        </h1>
        <Link to={user ? '/' : '/landing'} className={buttonClasses('outline', 'md', 'mt-4')}>
          Voltar ao início
        </Link>
      </div>
    )
  } else {
    content = (
      <ProfileDetails profile={profile.data}>
        {user?.id === profile.data.id && (
          <Link to="/profile/edit" className={buttonClasses('outline', 'sm', 'self-start')}>
            Editar perfil
          </Link>
        )}
        {user && user.id !== profile.data.id && (
          <>
            <ConnectButton userId={profile.data.id} name={displayName(profile.data)} />
            <MutualConnections userId={profile.data.id} />
          </>
        )}
        {/* The feed is for members: visitors see the invitation below instead. */}
        {user && <RecentPosts userId={profile.data.id} />}
        {user && user.id !== profile.data.id && <BlockUserButton userId={profile.data.id} name={displayName(profile.data)} />}
        {!user && (
          <p className="text-sm text-muted-foreground">
            Faça parte da comunidade VetClube.{' '}
            <Link to="/register" className="font-medium text-primary underline-offset-4 hover:underline">
              Criar conta
            </Link>
          </p>
        )}
      </ProfileDetails>
    )
  }
  return <div className="mx-auto flex max-w-3xl flex-col gap-5 py-4">{content}</div>
}
