import { httpClient } from '../providers/httpClient'

export type ApplicationStatus = 'recebida' | 'em_analise' | 'entrevista' | 'recusada' | 'contratada'

export const STATUS_CHOICES: { id: ApplicationStatus; name: string }[] = [
  { id: 'recebida', name: 'Recebida' },
  { id: 'em_analise', name: 'Em análise' },
  { id: 'entrevista', name: 'Entrevista' },
  { id: 'recusada', name: 'Recusada' },
  { id: 'contratada', name: 'Contratada' },
]

/** A job the signed-in person manages (core/jobs.ManagedJob). */
export interface ManagedJob {
  id: string
  slug: string
  title: string
  organization: string
  city: string
  state: string
  published: boolean
  closes_on: string
  applications: number
  new_applications: number
}

export interface Applicant {
  id: string
  first_name: string
  last_name: string
  avatar_url: string
  title: string
  biography: string
  crmv: string
  specialties: string[]
  verified: boolean
}

/** An application as the job's managers see it (core/jobs.Application). */
export interface JobApplication {
  id: string
  job_id: string
  status: ApplicationStatus
  status_label: string
  note: string
  message: string
  has_cv: boolean
  cv_name?: string
  created_at: string
  updated_at: string
  applicant?: Applicant
  history: { status: ApplicationStatus; status_label: string; note: string; at: string }[]
}

export interface Recruiter {
  user_id: string
  email: string
  name: string
}

export async function managedJobs(): Promise<ManagedJob[]> {
  return ((await httpClient('/api/admin/vagas')).json as { jobs: ManagedJob[] }).jobs
}

export async function jobApplications(jobId: string): Promise<JobApplication[]> {
  return ((await httpClient(`/api/admin/vagas/${jobId}/candidaturas`)).json as { applications: JobApplication[] }).applications
}

export async function setStatus(id: string, status: ApplicationStatus, note: string): Promise<JobApplication> {
  return (await httpClient(`/api/admin/vagas/candidaturas/${id}`, { method: 'PUT', body: { status, note } })).json as JobApplication
}

export async function recruiters(jobId: string): Promise<Recruiter[]> {
  return ((await httpClient(`/api/admin/vagas/${jobId}/recrutadores`)).json as { recruiters: Recruiter[] }).recruiters
}

export async function addRecruiter(jobId: string, email: string): Promise<Recruiter[]> {
  return ((await httpClient(`/api/admin/vagas/${jobId}/recrutadores`, { method: 'POST', body: { email } })).json as { recruiters: Recruiter[] })
    .recruiters
}

export async function removeRecruiter(jobId: string, userId: string): Promise<Recruiter[]> {
  return ((await httpClient(`/api/admin/vagas/${jobId}/recrutadores/${userId}`, { method: 'DELETE' })).json as { recruiters: Recruiter[] })
    .recruiters
}
