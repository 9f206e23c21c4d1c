import { Link, useParams } from 'react-router'
import { ArrowLeft, Download, Printer } from 'lucide-react'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { coursePath, isNotFound, useCourse } from '../api'
import { CertificateView } from '../components/CertificateView'
import { messages } from '../messages'
import '../certificate.css'

/** /cursos/:id/certificado: the learner's certificate, printable ('Imprimir') and as a PDF ('Baixar PDF'). */
export default function CertificatePage() {
  const { id = '' } = useParams()
  const course = useCourse(id)
  usePageTitle('Certificado')
  const cert = course.data?.my_certificate
  return (
    <div className="flex flex-col gap-4 py-2">
      <Link to={coursePath(id)} className="inline-flex items-center gap-1 self-start text-sm text-primary hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" /> Voltar para o curso
      </Link>
      <h1 className="text-2xl font-bold tracking-tight">Certificado</h1>
      {course.isPending && <Spinner label="Carregando certificado..." />}
      {course.isError && !course.data && (
        <p role="alert" className="font-medium">
          {isNotFound(course.error) ? messages.courseNotFound : messages.loadFailed}
        </p>
      )}
      {course.data && !cert && (
        <p role="status" className="text-muted-foreground">
          Você ainda não tem o certificado deste curso. Conclua todas as aulas obrigatórias para recebê-lo.
        </p>
      )}
      {cert && (
        <>
          {cert.status === 'revoked' && (
            <p role="alert" className="rounded-lg border border-destructive p-3 font-medium text-destructive">
              Este certificado foi revogado e não tem mais validade.
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => window.print()}>
              <Printer aria-hidden="true" className="h-4 w-4" /> Imprimir
            </Button>
            <a href={cert.pdf_url} download={`certificado-${cert.code}.pdf`} className={buttonClasses('outline')}>
              <Download aria-hidden="true" className="h-4 w-4" /> Baixar PDF
            </a>
            <Link to={cert.verify_url} className={buttonClasses('link')}>
              Página de verificação
            </Link>
          </div>
          <CertificateView
            learnerName={cert.learner_name}
            courseTitle={cert.course_title}
            hours={cert.hours}
            issuedAt={cert.issued_at}
            code={cert.code}
            verifyUrl={`${window.location.origin}${cert.verify_url}`}
            // The instructor recorded on the certificate; older answers without one fall back to the course's.
            instructor={cert.instructor_name ? { name: cert.instructor_name, title: cert.instructor_title } : course.data?.instructor}
          />
        </>
      )}
    </div>
  )
}
