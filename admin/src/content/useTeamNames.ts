import { useQuery } from '@tanstack/react-query'
import { team } from './api'

/**
 * Who an actor id is, for audit lines: the backoffice team (editors,
 * revisors, administrators) read once and shared by every panel. An id that
 * is not on the team (a reader's own action, a removed member) stays an id.
 */
export function useTeamNames(): (actorId: string | undefined) => string {
  const { data } = useQuery({ queryKey: ['backoffice-team'], queryFn: team, staleTime: 5 * 60_000 })
  return (actorId) => {
    if (!actorId) return 'Sistema'
    const member = data?.find((m) => m.id === actorId)
    return member ? member.name || member.email : actorId.slice(0, 8)
  }
}
