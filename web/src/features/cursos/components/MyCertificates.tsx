import { Link } from 'react-router'
import { Award } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Spinner } from '@/components/ui/Spinner'
import { certificatePath, useMyCertificates } from '../api'
import { formatDate, hoursLabel } from '../format'
import { messages } from '../messages'

/** The own profile's certificates, with the continuing-education hours per year (valid certificates only). */
export function MyCertificates() {
  const certs = useMyCertificates()
  return (
    <section aria-labelledby="my-certificates-title" className="flex flex-col gap-4 rounded-2xl border border-border bg-card p-5 shadow-sm">
      <h2 id="my-certificates-title" className="flex items-center gap-2 text-lg font-semibold">
        <Award aria-hidden="true" className="h-5 w-5 text-primary" />
        Certificados
      </h2>
      {certs.isPending && <Spinner label="Carregando certificados..." />}
      {certs.isError && (
        <p role="alert" className="text-sm">
          Erro ao carregar certificados.
        </p>
      )}
      {certs.data && certs.data.certificates.length === 0 && (
        <p className="text-sm text-muted-foreground">
          {messages.noCertificates}{' '}
          <Link to="/cursos" className="font-medium text-primary underline-offset-4 hover:underline">
            {messages.explore}
          </Link>
        </p>
      )}
      {certs.data && certs.data.certificates.length > 0 && (
        <>
          {certs.data.hours_by_year.length > 0 && (
            <div className="flex flex-col gap-2">
              <h3 className="text-sm font-semibold text-muted-foreground">Horas de educação continuada por ano</h3>
              <dl className="flex flex-wrap gap-2">
                {certs.data.hours_by_year.map((y) => (
                  <div key={y.year} className="rounded-lg bg-muted px-3 py-2 text-sm">
                    <dt className="inline font-semibold">{y.year}: </dt>
                    <dd className="inline">{hoursLabel(y.hours)}</dd>
                  </div>
                ))}
              </dl>
            </div>
          )}
          <ul aria-label="Meus certificados" className="flex flex-col divide-y divide-border">
            {certs.data.certificates.map((c) => (
              <li key={c.code} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <div className="flex min-w-0 flex-col">
                  <span className="font-medium">{c.course_title}</span>
                  <span className="text-sm text-muted-foreground">
                    {formatDate(c.issued_at)} · {hoursLabel(c.hours)}
                  </span>
                </div>
                {c.status === 'revoked' ? (
                  <Badge variant="outline">Revogado</Badge>
                ) : (
                  <Link to={certificatePath(c.course_id)} aria-label={`Ver certificado de ${c.course_title}`} className="text-sm font-medium text-primary underline-offset-4 hover:underline">
                    Ver certificado
                  </Link>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
