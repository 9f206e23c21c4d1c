import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { BadgeCheck, Users } from 'lucide-react'
import { Avatar } from '@/components/ui/Avatar'
import { Badge } from '@/components/ui/Badge'
import { Card } from '@/components/ui/Card'
import { useSpecialties } from '../api'
import { displayName } from '@/lib/names'
import type { PublicProfile } from '../types'

/** The part of a profile everyone may see; the own profile page adds private fields below it. */
export function ProfileDetails({ profile, connectionsHref, children }: { profile: PublicProfile; connectionsHref?: string; children?: ReactNode }) {
  const specialties = useSpecialties()
  const labelOf = (value: string) => specialties.data?.find((s) => s.value === value)?.label ?? value
  const name = displayName(profile)
  const connections = `${profile.connections_count} ${profile.connections_count === 1 ? 'conexão' : 'conexões'}`
  return (
    <Card className="flex flex-col gap-5 p-5 md:p-6">
      <div className="flex flex-col items-center gap-4 text-center sm:flex-row sm:items-start sm:text-left">
        <Avatar src={profile.avatar_url || null} name={name} className="h-24 w-24 text-2xl" />
        <div className="flex min-w-0 flex-1 flex-col gap-1.5">
          <h1 className="flex flex-wrap items-center justify-center gap-2 text-2xl font-bold tracking-tight sm:justify-start">
            {name}
            {profile.verified && (
              <Badge variant="success">
                <BadgeCheck aria-hidden="true" className="h-3.5 w-3.5" />
                Verificado
              </Badge>
            )}
          </h1>
          {profile.title && <p className="text-base text-muted-foreground">{profile.title}</p>}
          <div className="flex flex-wrap items-center justify-center gap-3 text-sm text-muted-foreground sm:justify-start">
            {profile.has_crmv && profile.crmv && <span>{profile.crmv}</span>}
            {profile.is_not_veterinarian && <span>Não é médico-veterinário</span>}
            {connectionsHref ? (
              // The own profile's count opens the connections page.
              <Link to={connectionsHref} className="inline-flex items-center gap-1 font-medium text-primary underline underline-offset-2">
                <Users aria-hidden="true" className="h-4 w-4" />
                {connections}
              </Link>
            ) : (
              <span className="inline-flex items-center gap-1">
                <Users aria-hidden="true" className="h-4 w-4" />
                {connections}
              </span>
            )}
          </div>
        </div>
      </div>
      {profile.biography && (
        <section aria-labelledby="profile-bio">
          <h2 id="profile-bio" className="text-sm font-semibold uppercase tracking-wide text-muted-foreground">
            Sobre
          </h2>
          <p className="mt-1 whitespace-pre-line">{profile.biography}</p>
        </section>
      )}
      {profile.specialties.length > 0 && (
        <section aria-labelledby="profile-specialties">
          <h2 id="profile-specialties" className="text-sm font-semibold uppercase tracking-wide text-muted-foreground">
            Especialidades
          </h2>
          <ul className="mt-2 flex flex-wrap gap-2">
            {profile.specialties.map((s) => (
              <li key={s}>
                <Badge variant="secondary">{labelOf(s)}</Badge>
              </li>
            ))}
          </ul>
        </section>
      )}
      {children}
    </Card>
  )
}
