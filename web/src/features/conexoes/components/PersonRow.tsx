import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { BadgeCheck } from 'lucide-react'
import { Avatar } from '@/components/ui/Avatar'
import { displayName } from '@/lib/names'
import type { ConnectionUser } from '../api'

/** One member in a list: avatar, name (to the public profile), title, and the row's actions. */
export function PersonRow({ user, detail, children }: { user: ConnectionUser; detail?: ReactNode; children?: ReactNode }) {
  const name = displayName(user)
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center">
      <div className="flex min-w-0 flex-1 items-center gap-3">
        <Avatar src={user.avatar_url || null} name={name} className="h-11 w-11" />
        <div className="min-w-0">
          <Link
            to={`/profile/${user.id}`}
            className="inline-flex max-w-full items-center gap-1 font-medium text-foreground underline-offset-4 hover:underline"
          >
            <span className="truncate">{name}</span>
            {user.verified && <BadgeCheck aria-label="Verificado" className="h-4 w-4 shrink-0 text-primary" />}
          </Link>
          {user.title && <p className="truncate text-sm text-muted-foreground">{user.title}</p>}
          {detail && <p className="text-xs text-muted-foreground">{detail}</p>}
        </div>
      </div>
      {children && <div className="flex shrink-0 flex-wrap gap-2 sm:justify-end">{children}</div>}
    </li>
  )
}
