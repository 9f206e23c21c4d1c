import { Link } from 'react-router'
import { UserPlus, Users } from 'lucide-react'
import { Avatar } from '@/components/ui/Avatar'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { displayName } from '@/lib/names'
import { useRequestConnection, useSuggestions } from '@/features/conexoes'

/** The way into /connections from the feed, with up to six people to connect with. */
export function ConnectionsCard() {
  const suggestions = useSuggestions()
  const request = useRequestConnection()
  const people = suggestions.data ?? []
  return (
    <Card className="flex flex-col gap-3 p-4" role="region" aria-labelledby="comunidade-conexoes">
      <h2 id="comunidade-conexoes" className="flex items-center gap-2 text-base font-semibold">
        <Users aria-hidden="true" className="h-4 w-4" />
        Sugestões de conexão
      </h2>
      {people.length > 0 ? (
        <ul aria-label="Sugestões de conexão" className="flex flex-col gap-3">
          {people.map((s) => {
            const name = displayName(s.user)
            return (
              <li key={s.user.id} className="flex items-center gap-2.5">
                <Avatar src={s.user.avatar_url || null} name={name} className="h-9 w-9" />
                <div className="min-w-0 flex-1">
                  <Link to={`/profile/${s.user.id}`} className="block truncate text-sm font-medium underline-offset-4 hover:underline">
                    {name}
                  </Link>
                  {s.user.title && <p className="truncate text-xs text-muted-foreground">{s.user.title}</p>}
                </div>
                <Button
                  size="icon"
                  variant="secondary"
                  className="h-8 w-8"
                  aria-label={`Conectar com ${name}`}
                  loading={request.isPending && request.variables === s.user.id}
                  disabled={request.isPending}
                  onClick={() => request.mutate(s.user.id)}
                >
                  {!(request.isPending && request.variables === s.user.id) && <UserPlus aria-hidden="true" className="h-4 w-4" />}
                </Button>
              </li>
            )
          })}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">Encontre colegas e amplie sua rede na comunidade.</p>
      )}
      <Link to="/connections" className={buttonClasses('outline', 'sm', 'w-full')}>
        Ver conexões
      </Link>
    </Card>
  )
}
