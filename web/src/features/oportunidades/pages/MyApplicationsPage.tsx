import { Link } from 'react-router'
import { ArrowLeft, FileText } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Card } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { useMyApplications, type ApplicationStatus } from '../api'

const statusVariant: Record<ApplicationStatus, 'default' | 'secondary' | 'outline' | 'success' | 'warning'> = {
  recebida: 'outline',
  em_analise: 'secondary',
  entrevista: 'default',
  recusada: 'warning',
  contratada: 'success',
}

const when = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' })

/** /oportunidades/candidaturas: the member's applications, their status and the history of changes. */
export default function MyApplicationsPage() {
  usePageTitle('Minhas candidaturas')
  const apps = useMyApplications()
  return (
    <div className="flex min-w-0 flex-col gap-5">
      <Link to="/oportunidades" className="flex items-center gap-1 text-sm text-primary hover:underline">
        <ArrowLeft aria-hidden className="size-4" /> Oportunidades
      </Link>
      <h1 className="text-2xl font-bold tracking-tight">Minhas candidaturas</h1>
      {apps.isPending && <Spinner />}
      {apps.isError && <p role="alert">Erro ao carregar suas candidaturas.</p>}
      {apps.data && apps.data.applications.length === 0 && (
        <p className="text-muted-foreground">Você ainda não se candidatou a nenhuma vaga.</p>
      )}
      <ul className="flex flex-col gap-3">
        {apps.data?.applications.map((a) => (
          <li key={a.id}>
            <Card className="flex flex-col gap-2 p-4" data-testid="application">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 className="text-lg font-semibold">
                  <Link to={`/oportunidades/${a.job_slug}`} className="hover:underline">
                    {a.job_title}
                  </Link>
                </h2>
                <Badge variant={statusVariant[a.status]}>{a.status_label}</Badge>
              </div>
              <p className="text-sm text-muted-foreground">{a.organization}</p>
              {a.note && (
                <p className="text-sm">
                  <span className="font-medium">Observação do recrutador:</span> {a.note}
                </p>
              )}
              {a.has_cv && (
                <a href={`/api/vagas/candidaturas/${a.id}/curriculo`} className="flex items-center gap-1 text-sm text-primary hover:underline">
                  <FileText aria-hidden className="size-4" /> {a.cv_name || 'Currículo'}
                </a>
              )}
              <details>
                <summary className="cursor-pointer text-sm">Histórico</summary>
                <ol className="mt-2 flex flex-col gap-1 text-sm">
                  {a.history.map((h, i) => (
                    <li key={i}>
                      {when.format(new Date(h.at))} — {h.status_label}
                      {h.note ? `: ${h.note}` : ''}
                    </li>
                  ))}
                </ol>
              </details>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  )
}
