import { useQuery } from '@tanstack/react-query'
import { team } from './api'

/**
 * Who an actor id is, for audit lines: the backoffice team (editors,
 * revisors, administrators) read once and shared by every panel. Someone
 * not on the team (a member acting on their own content) is named by the
 * name the server sent with the event; only with none is a short id shown.
 */
export function useTeamNames(): (actorId: string | undefined, knownName?: string) => string {
  const { data } = useQuery({ queryKey: ['backoffice-team'], queryFn: team, staleTime: 5 * 60_000 })
  return (actorId, knownName) => {
    if (!actorId) return 'Sistema'
    const member = data?.find((m) => m.id === actorId)
    return member ? member.name || member.email : knownName || actorId.slice(0, 8)
  }
}
