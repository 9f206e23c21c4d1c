import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'

/** The member's take on a challenge (core/challenges.Participation). */
export interface Participation {
  status: 'in_progress' | 'submitted' | 'closed'
  answers: Record<string, string>
  answered: number
  correct: number
  total: number
  points_awarded: number
  started_at: string
  submitted_at: string | null
}

export interface Question {
  number: number
  text: string
  options: string[]
  correct?: string
  explanation?: string
}

export type Phase = 'active' | 'upcoming' | 'finished'

/** A challenge as GET /api/desafios answers it (core/challenges.Challenge). */
export interface Challenge {
  id: string
  slug: string
  title: string
  summary: string
  description: string
  kind: string
  difficulty: string
  specialty: string
  points: number
  premium_only: boolean
  starts_at: string
  ends_at: string
  phase: Phase
  question_count: number
  /** A measured challenge's goal, and what the member did since the start (lessons completed, answers accepted). */
  goal?: number
  done?: number
  me: Participation | null
  history?: string
  exam_findings?: string
  images?: string[]
  questions?: Question[]
  explanation?: string
  unlocked: boolean
  access?: string
}

export interface RankingEntry {
  position: number
  user_id: string
  name: string
  avatar_url: string
  points: number
  completed: number
  is_me: boolean
}

export interface Ranking {
  scope: 'geral' | 'conexoes'
  week_start: string
  week_end: string
  entries: RankingEntry[]
  me: RankingEntry | null
}

export interface Badge {
  id: string
  name: string
  description: string
  weeks: number
  earned: boolean
  awarded_at: string | null
}

export interface BadgeBoard {
  streak: number
  completed: number
  badges: Badge[]
}

export type ListPhase = 'ativos' | 'proximos' | 'encerrados'

export interface ChallengeFilter {
  fase: ListPhase
  especialidade: string
  dificuldade: string
}

export const challengeKeys = {
  all: ['desafios'] as const,
  list: (f: ChallengeFilter) => ['desafios', 'list', f.fase, f.especialidade, f.dificuldade] as const,
  item: (slug: string) => ['desafios', 'item', slug] as const,
  ranking: (scope: string) => ['desafios', 'ranking', scope] as const,
  badges: ['desafios', 'badges'] as const,
}

export function useChallenges(f: ChallengeFilter) {
  const q = new URLSearchParams({ fase: f.fase })
  if (f.especialidade) q.set('especialidade', f.especialidade)
  if (f.dificuldade) q.set('dificuldade', f.dificuldade)
  return useQuery({
    queryKey: challengeKeys.list(f),
    queryFn: ({ signal }) => apiFetch<{ challenges: Challenge[] }>(`/api/desafios?${q.toString()}`, { signal }).then((r) => r.challenges),
    staleTime: 0,
  })
}

export function useChallenge(slug: string) {
  return useQuery({
    queryKey: challengeKeys.item(slug),
    queryFn: ({ signal }) => apiFetch<Challenge>(`/api/desafios/${encodeURIComponent(slug)}`, { signal }),
    staleTime: 0,
    retry: false,
  })
}

export function useRanking(scope: 'geral' | 'conexoes') {
  return useQuery({
    queryKey: challengeKeys.ranking(scope),
    queryFn: ({ signal }) => apiFetch<Ranking>(`/api/desafios/ranking?escopo=${scope}`, { signal }),
    staleTime: 0,
  })
}

export function useBadges() {
  return useQuery({
    queryKey: challengeKeys.badges,
    queryFn: ({ signal }) => apiFetch<BadgeBoard>('/api/desafios/medalhas', { signal }),
    staleTime: 0,
  })
}

/** Saves answers as the member goes. */
export function useSaveAnswers(slug: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (answers: Record<string, string>) =>
      apiFetch<Participation>(`/api/desafios/${encodeURIComponent(slug)}/respostas`, { method: 'PUT', body: { answers } }),
    onSuccess: (p) => {
      qc.setQueryData<Challenge>(challengeKeys.item(slug), (c) => (c ? { ...c, me: p } : c))
      void qc.invalidateQueries({ queryKey: ['desafios', 'list'] })
    },
  })
}

/** Joins a measured challenge (an empty save); the page is read again for the progress so far. */
export function useJoinChallenge(slug: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: () => apiFetch<Participation>(`/api/desafios/${encodeURIComponent(slug)}/respostas`, { method: 'PUT', body: { answers: {} } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: challengeKeys.all }),
  })
}

/** Sends the answers once; the answer is the unlocked page. */
export function useSubmitAnswers(slug: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (answers: Record<string, string>) =>
      apiFetch<{ challenge: Challenge; already_submitted: boolean }>(`/api/desafios/${encodeURIComponent(slug)}/envio`, {
        method: 'POST',
        body: { answers },
      }),
    onSuccess: (r) => {
      qc.setQueryData(challengeKeys.item(slug), r.challenge)
      void qc.invalidateQueries({ queryKey: challengeKeys.all })
      // The VetCoins balance changed.
      void qc.invalidateQueries({ queryKey: ['points'] })
    },
  })
}
