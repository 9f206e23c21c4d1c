import { Award } from 'lucide-react'
import { Logo } from '@/components/Logo'
import { formatDate, hoursLabel } from '../format'

/** The certificate itself, as printed: learner, course, hours, date, the instructor who signs it and the verification code. */
export function CertificateView({
  learnerName,
  courseTitle,
  hours,
  issuedAt,
  code,
  verifyUrl,
  instructor,
}: {
  learnerName: string
  courseTitle: string
  hours: number
  issuedAt: string
  code: string
  verifyUrl: string
  /** The course's instructor: name and, when given, professional title. */
  instructor?: { name: string; title?: string | null } | null
}) {
  return (
    <article
      aria-label="Certificado de conclusão"
      className="vc-certificate relative flex aspect-[297/210] w-full flex-col items-center justify-between gap-4 rounded-2xl border-8 border-double border-teal-800 bg-white p-6 text-center text-slate-900 shadow-sm sm:p-12"
    >
      <div className="flex flex-col items-center gap-2">
        <Logo />
        <p className="text-xs font-semibold uppercase tracking-[0.3em] text-teal-800 sm:text-sm">Certificado de conclusão</p>
      </div>
      <div className="flex flex-col items-center gap-2 sm:gap-4">
        <p className="text-sm sm:text-base">Certificamos que</p>
        <p className="font-serif text-2xl font-bold sm:text-4xl">{learnerName}</p>
        <p className="max-w-2xl text-sm sm:text-base">
          concluiu o curso <strong>{courseTitle}</strong>, com carga horária de <strong>{hoursLabel(hours)}</strong>, em{' '}
          <strong>{formatDate(issuedAt)}</strong>.
        </p>
      </div>
      {instructor?.name && (
        <div className="flex flex-col items-center gap-0.5">
          <span aria-hidden="true" className="mb-1 block h-px w-40 bg-slate-400 sm:w-56" />
          <p className="text-sm font-semibold sm:text-base">{instructor.name}</p>
          <p className="text-[10px] text-slate-600 sm:text-xs">{instructor.title ? `Instrutor(a) do curso · ${instructor.title}` : 'Instrutor(a) do curso'}</p>
        </div>
      )}
      <div className="flex w-full flex-col items-center gap-1 text-[10px] text-slate-600 sm:text-xs">
        <Award aria-hidden="true" className="h-8 w-8 text-amber-600" />
        <p>
          Código de verificação: <span className="font-mono font-semibold">{code}</span>
        </p>
        {/* The long URL breaks anywhere rather than overflow the border on a phone. */}
        <p className="[overflow-wrap:anywhere]">Verifique a autenticidade em {verifyUrl}</p>
      </div>
    </article>
  )
}
