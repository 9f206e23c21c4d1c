import { Link } from 'react-router'
import { Avatar } from '@/components/ui/Avatar'
import { displayName } from '@/lib/names'
import { useMutualConnections } from '../api'

/** 'N conexões em comum' with their avatars, on someone else's profile; nothing when there are none. */
export function MutualConnections({ userId }: { userId: string }) {
  const mutual = useMutualConnections(userId)
  if (!mutual.data || mutual.data.count === 0) return null
  const { mutual: people, count } = mutual.data
  return (
    <section aria-labelledby="profile-mutual">
      <h2 id="profile-mutual" className="text-sm font-semibold uppercase tracking-wide text-muted-foreground">
        {count === 1 ? '1 conexão em comum' : `${count} conexões em comum`}
      </h2>
      <ul className="mt-2 flex flex-wrap gap-3">
        {people.map((p) => (
          <li key={p.id}>
            <Link to={`/profile/${p.id}`} className="flex items-center gap-2 rounded-lg py-1 pr-2 text-sm hover:bg-muted">
              <Avatar src={p.avatar_url || null} name={displayName(p)} className="h-8 w-8 text-xs" />
              {displayName(p)}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  )
}
