import type { ApplicationStatus, Job, JobFilter } from './api'

export const STATES = [
  'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA',
  'PB', 'PR', 'PE', 'PI', 'RJ', 'RN', 'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO',
]

export const WORKPLACES: Record<string, string> = { remoto: 'Remoto', hibrido: 'Híbrido', presencial: 'Presencial' }

export const CONTRACTS: Record<string, string> = {
  clt: 'CLT', pj: 'PJ', estagio: 'Estágio', residencia: 'Residência', plantao: 'Plantão', freelance: 'Freelance',
}

export const AREAS: Record<string, string> = {
  pequenos_animais: 'Pequenos animais',
  grandes_animais: 'Grandes animais',
  equinos: 'Equinos',
  silvestres_exoticos: 'Silvestres e exóticos',
  aves_suinos: 'Aves e suínos',
  saude_publica: 'Saúde pública',
  laboratorio: 'Laboratório e diagnóstico',
  industria: 'Indústria e comercial',
  ensino_pesquisa: 'Ensino e pesquisa',
}

export const STATUS_LABELS: Record<ApplicationStatus, string> = {
  recebida: 'Recebida', em_analise: 'Em análise', entrevista: 'Entrevista', recusada: 'Recusada', contratada: 'Contratada',
}

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL', maximumFractionDigits: 0 })

/** 'R$ 6.000 – R$ 9.000', 'A partir de R$ 6.000', 'Até R$ 9.000' or 'A combinar'. */
export function salaryLabel(j: Pick<Job, 'salary_min' | 'salary_max'>): string {
  const { salary_min: lo, salary_max: hi } = j
  if (lo != null && hi != null) return lo === hi ? brl.format(lo) : `${brl.format(lo)} – ${brl.format(hi)}`
  if (lo != null) return `A partir de ${brl.format(lo)}`
  if (hi != null) return `Até ${brl.format(hi)}`
  return 'A combinar'
}

/** 10/12/2026 from 2026-12-10 (the closing day, as typed). */
export function dayLabel(day: string): string {
  const [y, m, d] = day.split('-')
  return `${d}/${m}/${y}`
}

/** How a saved search reads: 'SP · CLT · "cirurgia"'. */
export function filterLabel(f: JobFilter): string {
  const parts: string[] = []
  if (f.q) parts.push(`“${f.q}”`)
  if (f.state) parts.push(f.state)
  if (f.city) parts.push(f.city)
  if (f.area) parts.push(AREAS[f.area] ?? f.area)
  if (f.contract) parts.push(CONTRACTS[f.contract] ?? f.contract)
  if (f.workplace) parts.push(WORKPLACES[f.workplace] ?? f.workplace)
  if (f.salary_given) parts.push('com salário')
  return parts.join(' · ') || 'Todas as vagas'
}
