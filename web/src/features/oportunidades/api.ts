import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { apiFetch } from '@/lib/api'

/** How a candidate applies (core/jobs.Apply). */
export interface ApplyHow {
  kind: 'link' | 'email' | 'vetclube'
  value: string
}

export type ApplicationStatus = 'recebida' | 'em_analise' | 'entrevista' | 'recusada' | 'contratada'

/** A job as GET /api/vagas answers it (core/jobs.Job). */
export interface Job {
  id: string
  slug: string
  title: string
  summary: string
  organization: string
  city: string
  state: string
  workplace: string
  contract: string
  area: string
  specialty: string
  salary_min: number | null
  salary_max: number | null
  requirements?: string
  crmv_required: boolean
  apply: ApplyHow
  closes_on: string
  closes_at: string
  featured: boolean
  published: boolean
  published_at: string
  saved: boolean
  application: { id: string; status: ApplicationStatus } | null
  below_salary_floor: boolean
}

export interface JobPage extends Job {
  share_url: string
}

export interface JobFilter {
  q: string
  state: string
  city: string
  area: string
  contract: string
  workplace: string
  salary_given: boolean
}

export const emptyFilter: JobFilter = { q: '', state: '', city: '', area: '', contract: '', workplace: '', salary_given: false }

export type JobSort = 'recentes' | 'encerramento'

export interface Application {
  id: string
  job_id: string
  job_slug: string
  job_title: string
  organization: string
  job_open: boolean
  status: ApplicationStatus
  status_label: string
  note: string
  message: string
  has_cv: boolean
  cv_name?: string
  created_at: string
  updated_at: string
  history: { status: ApplicationStatus; status_label: string; note: string; at: string }[]
}

export interface SavedSearch extends JobFilter {
  id: string
  alerts: boolean
  created_at: string
}

export const jobKeys = {
  all: ['vagas'] as const,
  list: (f: JobFilter, sort: JobSort, page: number) => ['vagas', 'list', f, sort, page] as const,
  item: (slug: string) => ['vagas', 'item', slug] as const,
  saved: ['vagas', 'salvas'] as const,
  mine: ['vagas', 'candidaturas'] as const,
  searches: ['vagas', 'buscas'] as const,
}

export function listQuery(f: JobFilter, sort: JobSort, page: number): string {
  const q = new URLSearchParams()
  if (f.q.trim()) q.set('q', f.q.trim())
  if (f.state) q.set('state', f.state)
  if (f.city.trim()) q.set('city', f.city.trim())
  if (f.area) q.set('area', f.area)
  if (f.contract) q.set('contract', f.contract)
  if (f.workplace) q.set('workplace', f.workplace)
  if (f.salary_given) q.set('salary', '1')
  if (sort !== 'recentes') q.set('sort', sort)
  if (page > 1) q.set('page', String(page))
  return q.toString()
}

/** Open jobs, filtered, one page. */
export function useJobs(f: JobFilter, sort: JobSort, page: number) {
  return useQuery({
    queryKey: jobKeys.list(f, sort, page),
    queryFn: ({ signal }) =>
      apiFetch<{ jobs: Job[]; total: number; page: number; page_size: number }>(`/api/vagas?${listQuery(f, sort, page)}`, { signal }),
    placeholderData: keepPreviousData,
  })
}

export function useJob(slug: string) {
  return useQuery({
    queryKey: jobKeys.item(slug),
    queryFn: ({ signal }) => apiFetch<JobPage>(`/api/vagas/${encodeURIComponent(slug)}`, { signal }),
  })
}

export function useSavedJobs() {
  return useQuery({ queryKey: jobKeys.saved, queryFn: ({ signal }) => apiFetch<{ jobs: Job[] }>('/api/vagas/salvas', { signal }) })
}

export function useMyApplications() {
  return useQuery({
    queryKey: jobKeys.mine,
    queryFn: ({ signal }) => apiFetch<{ applications: Application[] }>('/api/vagas/candidaturas', { signal }),
    staleTime: 0,
  })
}

/** Salvar / remover dos salvos. */
export function useSaveJob(slug: string) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (save: boolean) =>
      apiFetch<JobPage>(`/api/vagas/${encodeURIComponent(slug)}/salva`, { method: save ? 'PUT' : 'DELETE' }),
    onSuccess: (page) => {
      qc.setQueryData(jobKeys.item(slug), page)
      void qc.invalidateQueries({ queryKey: ['vagas', 'list'] })
      void qc.invalidateQueries({ queryKey: jobKeys.saved })
    },
  })
}

/** Candidatar-se no VetClube, com mensagem e currículo (PDF) opcionais. */
export function useApply(slug: string) {
  const qc = useQueryClient()
  return useMutation({
    retry: false,
    mutationFn: ({ message, cv, onProgress }: { message: string; cv: File | null; onProgress?: (f: number) => void }) => {
      const form = new FormData()
      form.append('message', message)
      if (cv) form.append('cv', cv, cv.name)
      return apiFetch<Application>(`/api/vagas/${encodeURIComponent(slug)}/candidatura`, { method: 'POST', form, onUploadProgress: onProgress })
    },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: jobKeys.item(slug) })
      void qc.invalidateQueries({ queryKey: jobKeys.mine })
      void qc.invalidateQueries({ queryKey: ['vagas', 'list'] })
    },
  })
}

export function useSavedSearches() {
  return useQuery({
    queryKey: jobKeys.searches,
    queryFn: ({ signal }) => apiFetch<{ searches: SavedSearch[] }>('/api/vagas/buscas', { signal }),
  })
}

export function useSaveSearch() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (f: JobFilter) => apiFetch<SavedSearch>('/api/vagas/buscas', { method: 'POST', body: { ...f, alerts: true } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: jobKeys.searches }),
  })
}

export function useSearchAlerts() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, alerts }: { id: string; alerts: boolean }) =>
      apiFetch<SavedSearch>(`/api/vagas/buscas/${id}/alertas`, { method: 'PUT', body: { alerts } }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: jobKeys.searches }),
  })
}

export function useDeleteSearch() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`/api/vagas/buscas/${id}`, { method: 'DELETE' }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: jobKeys.searches }),
  })
}
