import { useRef, useState } from 'react'
import { Link, useParams } from 'react-router'
import Markdown from 'react-markdown'
import { AlertTriangle, ArrowLeft, Bookmark, BookmarkCheck, Briefcase, CalendarClock, ExternalLink, Mail, MapPin } from 'lucide-react'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Badge } from '@/components/ui/Badge'
import { Card } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { ShareButton } from '@/components/ShareButton'
import { toast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api'
import { usePageTitle } from '@/lib/usePageTitle'
import { useApply, useJob, useSaveJob, type JobPage as Page } from '../api'
import { AREAS, CONTRACTS, STATUS_LABELS, WORKPLACES, dayLabel, salaryLabel } from '../format'

const MAX_CV = 10 * 1024 * 1024

/** /oportunidades/{slug}: the job, save, share, and how to apply. */
export default function JobPage() {
  const { slug = '' } = useParams()
  const job = useJob(slug)
  usePageTitle(job.data?.title ?? 'Vaga')
  if (job.isPending) return <Spinner />
  if (job.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3">
        <p>{job.error instanceof ApiError ? job.error.message : 'Erro ao carregar a vaga.'}</p>
        <Link to="/oportunidades" className={buttonClasses('outline', 'sm')}>
          Ver todas as vagas
        </Link>
      </div>
    )
  }
  return <JobDetail job={job.data} />
}

function JobDetail({ job }: { job: Page }) {
  const save = useSaveJob(job.slug)
  const open = job.published && new Date(job.closes_at).getTime() > Date.now()
  return (
    <article className="flex min-w-0 flex-col gap-5">
      <Link to="/oportunidades" className="flex items-center gap-1 text-sm text-primary hover:underline">
        <ArrowLeft aria-hidden className="size-4" /> Oportunidades
      </Link>
      <header className="flex flex-col gap-2">
        <div className="flex flex-wrap gap-2">
          {job.featured && <Badge>Destaque</Badge>}
          <Badge variant="secondary">{CONTRACTS[job.contract] ?? job.contract}</Badge>
          <Badge variant="outline">{WORKPLACES[job.workplace] ?? job.workplace}</Badge>
          <Badge variant="outline">{AREAS[job.area] ?? job.area}</Badge>
          {!open && <Badge variant="warning">Encerrada</Badge>}
        </div>
        <h1 className="text-2xl font-bold tracking-tight">{job.title}</h1>
        <p className="flex items-center gap-1.5 text-muted-foreground">
          <Briefcase aria-hidden className="size-4" /> {job.organization}
        </p>
        <p className="flex items-center gap-1.5 text-muted-foreground">
          <MapPin aria-hidden className="size-4" /> {job.city}/{job.state}
        </p>
        <p className="flex items-center gap-1.5 text-muted-foreground">
          <CalendarClock aria-hidden className="size-4" /> Inscrições até {dayLabel(job.closes_on)}
        </p>
        <p className="text-lg font-semibold">{salaryLabel(job)}</p>
        {job.below_salary_floor && (
          <p className="flex items-start gap-1.5 text-sm text-muted-foreground">
            <AlertTriangle aria-hidden className="mt-0.5 size-4 shrink-0" />
            Remuneração abaixo do piso salarial do médico-veterinário (Lei 4.950-A/1966: 6 salários mínimos para 6 horas diárias).
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            aria-pressed={job.saved}
            loading={save.isPending}
            onClick={() =>
              save.mutate(!job.saved, {
                onSuccess: (p) => toast({ title: p.saved ? 'Vaga salva' : 'Vaga removida das salvas', variant: 'success' }),
                onError: (e) => toast({ title: e instanceof ApiError ? e.message : 'Não foi possível salvar.', variant: 'error' }),
              })
            }
          >
            {job.saved ? <BookmarkCheck aria-hidden className="size-4" /> : <Bookmark aria-hidden className="size-4" />}
            {job.saved ? 'Salva' : 'Salvar vaga'}
          </Button>
          <ShareButton title={job.title} text={`${job.title} — ${job.organization}`} url={job.share_url} />
        </div>
      </header>
      {job.summary && <p>{job.summary}</p>}
      <section aria-labelledby="requisitos" className="flex flex-col gap-2">
        <h2 id="requisitos" className="text-lg font-semibold">
          Requisitos
        </h2>
        {job.specialty && <p className="text-sm">Especialidade: {job.specialty}</p>}
        {job.crmv_required && <p className="text-sm">Exige inscrição ativa no CRMV.</p>}
        <div className="prose prose-sm max-w-none dark:prose-invert">
          <Markdown skipHtml>{job.requirements ?? ''}</Markdown>
        </div>
      </section>
      <HowToApply job={job} open={open} />
    </article>
  )
}

function HowToApply({ job, open }: { job: Page; open: boolean }) {
  if (job.application) {
    return (
      <Card className="flex flex-col gap-2 p-4" role="status">
        <h2 className="text-lg font-semibold">Você se candidatou</h2>
        <p>
          Situação: <strong>{STATUS_LABELS[job.application.status]}</strong>
        </p>
        <Link to="/oportunidades/candidaturas" className="text-sm text-primary hover:underline">
          Ver minhas candidaturas
        </Link>
      </Card>
    )
  }
  if (!open) return <p className="text-muted-foreground">As candidaturas para esta vaga estão encerradas.</p>
  if (job.apply.kind === 'link') {
    return (
      <a href={job.apply.value} target="_blank" rel="noopener noreferrer nofollow" className={buttonClasses('primary', 'md', 'self-start')}>
        <ExternalLink aria-hidden className="size-4" /> Candidatar-se no site da empresa
      </a>
    )
  }
  if (job.apply.kind === 'email') {
    return (
      <a href={`mailto:${job.apply.value}?subject=${encodeURIComponent('Candidatura: ' + job.title)}`} className={buttonClasses('primary', 'md', 'self-start')}>
        <Mail aria-hidden className="size-4" /> Candidatar-se por e-mail ({job.apply.value})
      </a>
    )
  }
  return <ApplyForm job={job} />
}

function ApplyForm({ job }: { job: Page }) {
  const apply = useApply(job.slug)
  const [message, setMessage] = useState('')
  const [cv, setCv] = useState<File | null>(null)
  const [error, setError] = useState('')
  const [progress, setProgress] = useState<number | null>(null)
  const fileRef = useRef<HTMLInputElement>(null)
  const submit = (e: React.FormEvent) => {
    e.preventDefault()
    setError('')
    if (cv && (cv.size > MAX_CV || !/\.pdf$/i.test(cv.name))) {
      setError('Envie o currículo em PDF (até 10 MB).')
      return
    }
    apply.mutate(
      { message, cv, onProgress: cv ? setProgress : undefined },
      {
        onSuccess: () => {
          setProgress(null)
          toast({ title: 'Candidatura enviada!', variant: 'success' })
        },
        onError: (err) => {
          setProgress(null)
          setError(err instanceof ApiError ? err.message : 'Não foi possível enviar a candidatura.')
        },
      },
    )
  }
  return (
    <Card className="flex flex-col gap-3 p-4">
      <h2 className="text-lg font-semibold">Candidatar-se no VetClube</h2>
      <p className="text-sm text-muted-foreground">Quem gerencia a vaga verá o seu perfil público, a mensagem e o currículo.</p>
      <form className="flex flex-col gap-3" onSubmit={submit} noValidate>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Mensagem (opcional)
          <textarea
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            maxLength={3000}
            rows={4}
            className="rounded-lg border border-border bg-card p-2 text-sm"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm font-medium">
          Currículo em PDF (opcional, até 10 MB)
          <input
            ref={fileRef}
            type="file"
            accept="application/pdf,.pdf"
            onChange={(e) => setCv(e.target.files?.[0] ?? null)}
            className="text-sm"
          />
        </label>
        {error && (
          <p role="alert" className="text-sm text-destructive">
            {error}
          </p>
        )}
        {progress !== null && (
          <progress value={progress} max={1} aria-label="Envio do currículo" className="w-full">
            {Math.round(progress * 100)}%
          </progress>
        )}
        <Button type="submit" loading={apply.isPending} className="self-start">
          Enviar candidatura
        </Button>
      </form>
    </Card>
  )
}
