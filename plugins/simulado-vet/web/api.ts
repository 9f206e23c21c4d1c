import { toolFetch } from '@/features/ferramentas'

export const TOOL = 'simulado-vet'

export interface AreaInfo {
  value: string
  label: string
  count: number
}

export interface Overview {
  areas: AreaInfo[]
  sizes: number[]
  seconds_per_question: number
  quiz_size: number
  coins_per_correct: number
  daily_cap: number
  rule: string
  limit: { limit: number; used: number; allowed: boolean; reason: string }
  open: { simulado?: string; quiz?: string }
}

export interface Question {
  pos: number
  area: string
  area_label: string
  difficulty: string
  statement: string
  options: string[]
  answer: number | null
  marked: boolean
  correct?: number
  is_correct?: boolean
  explanation?: string
  source?: string
}

export interface AreaScore {
  area: string
  label: string
  correct: number
  total: number
  percent: number
}

export interface Attempt {
  id: string
  mode: 'simulado' | 'quiz'
  status: 'open' | 'submitted'
  areas: { value: string; label: string }[]
  size: number
  answered: number
  questions: Question[]
  rule: string
  deadline?: string
  remaining_seconds?: number
  submitted_at?: string
  timed_out?: boolean
  score?: number
  total?: number
  percent?: number
  by_area?: AreaScore[]
  coins?: number
  coins_credited?: boolean
}

export interface History {
  attempts: {
    id: string
    size: number
    submitted_at: string
    timed_out: boolean
    score: number
    percent: number
    coins: number
    by_area: AreaScore[]
  }[]
  evolution: { area: string; label: string; points: { attempt_id: string; at: string; percent: number }[] }[]
}

export const overviewKey = ['tools', TOOL, 'overview'] as const
export const getOverview = () => toolFetch<Overview>(TOOL, 'overview')
export const letters = ['A', 'B', 'C', 'D', 'E']

export function formatClock(seconds: number) {
  const s = Math.max(0, Math.floor(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const pad = (n: number) => String(n).padStart(2, '0')
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`
}
