import { Link, useParams } from 'react-router'
import { ShieldCheck, ShieldX } from 'lucide-react'
import { Logo } from '@/components/Logo'
import { Button } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { useAuth } from '@/lib/session/AuthProvider'
import { isNotFound, usePublicCertificate } from '../api'
import { formatDate, hoursLabel } from '../format'
import { messages } from '../messages'

/**
 * /certificados/:code, public (no sign-in, no layout): whether the certificate
 * is valid or revoked, and only the learner's name, the course, the hours and
 * the date.
 */
export default function PublicCertificatePage() {
  const { code = '' } = useParams()
  const { loading } = useAuth()
  const cert = usePublicCertificate(code, !loading)
  usePageTitle('Verificação de certificado')
  const c = cert.data
  return (
    <main className="flex min-h-dvh flex-col items-center bg-background px-4 py-10">
      <div className="flex w-full max-w-xl flex-col gap-6">
        <Link to="/" aria-label="VetClube" className="self-center">
          <Logo />
        </Link>
        <h1 className="text-center text-2xl font-bold tracking-tight">Verificação de certificado</h1>
        {cert.isPending && (
          <div className="flex justify-center">
            <Spinner label="Verificando certificado..." />
          </div>
        )}
        {cert.isError && !c && (
          <div role="alert" className="flex flex-col items-center gap-3 rounded-2xl border border-border bg-card p-6 text-center">
            {isNotFound(cert.error) ? (
              <>
                <ShieldX aria-hidden="true" className="h-10 w-10 text-destructive" />
                <p className="text-lg font-semibold">{messages.certificateNotFound}</p>
                <p className="text-sm text-muted-foreground">{messages.certificateNotFoundHint}</p>
              </>
            ) : (
              <>
                <p className="font-medium">{messages.certificateCheckFailed}</p>
                <Button variant="outline" onClick={() => void cert.refetch()}>
                  {messages.retry}
                </Button>
              </>
            )}
          </div>
        )}
        {c && (
          <section aria-labelledby="certificate-status" className="flex flex-col gap-5 rounded-2xl border border-border bg-card p-6 shadow-sm">
            {c.status === 'valid' ? (
              <p id="certificate-status" role="status" className="flex items-center justify-center gap-2 text-xl font-bold text-green-700 dark:text-green-400">
                <ShieldCheck aria-hidden="true" className="h-8 w-8" /> {messages.certificateValid}
              </p>
            ) : (
              <p id="certificate-status" role="status" className="flex items-center justify-center gap-2 text-xl font-bold text-destructive">
                <ShieldX aria-hidden="true" className="h-8 w-8" /> {messages.certificateRevoked}
              </p>
            )}
            <dl className="grid gap-3 text-sm sm:grid-cols-2">
              <div>
                <dt className="text-muted-foreground">Nome</dt>
                <dd className="font-semibold">{c.learner_name}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Curso</dt>
                <dd className="font-semibold">{c.course_title}</dd>
              </div>
              {c.instructor_name && (
                <div>
                  <dt className="text-muted-foreground">Instrutor(a)</dt>
                  <dd className="font-semibold">{c.instructor_name}</dd>
                </div>
              )}
              <div>
                <dt className="text-muted-foreground">Carga horária</dt>
                <dd className="font-semibold">{hoursLabel(c.hours)}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Data de conclusão</dt>
                <dd className="font-semibold">{formatDate(c.issued_at)}</dd>
              </div>
            </dl>
          </section>
        )}
      </div>
    </main>
  )
}
