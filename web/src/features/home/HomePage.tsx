import { useAuth } from '@/features/auth/AuthProvider'
import { fullName, useMyProfile } from '@/lib/account'
import { usePageTitle } from '@/app/usePageTitle'

export default function HomePage() {
  usePageTitle('Início')
  const { user } = useAuth()
  const profile = useMyProfile(!!user)
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold">Olá, {fullName(profile.data) || 'Usuário'}!</h1>
    </div>
  )
}
