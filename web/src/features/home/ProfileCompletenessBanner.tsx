import { Link } from 'react-router'
import { UserRoundPen } from 'lucide-react'
import { buttonClasses } from '@/components/ui/Button'
import { useProfileCompleteness } from '@/features/profile'

const FIELD_LABELS: Record<string, string> = {
  first_name: 'nome',
  last_name: 'sobrenome',
  title: 'título profissional',
  biography: 'biografia',
  specialties: 'especialidades',
  crmv: 'CRMV',
}

/** 'nome, biografia e CRMV' from the API's missing field names. */
export function describeMissing(missing: readonly string[]): string {
  const labels = missing.map((field) => FIELD_LABELS[field] ?? field)
  if (labels.length <= 1) return labels.join('')
  return `${labels.slice(0, -1).join(', ')} e ${labels[labels.length - 1]}`
}

/** Shown on the home page until the server says the profile is complete. */
export function ProfileCompletenessBanner() {
  const { data } = useProfileCompleteness()
  if (!data || data.complete) return null
  return (
    <section
      aria-labelledby="completeness-title"
      className="flex flex-col gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-50"
    >
      <UserRoundPen aria-hidden="true" className="h-8 w-8 shrink-0" />
      <div className="flex flex-1 flex-col gap-0.5">
        <h2 id="completeness-title" className="font-semibold">
          Complete seu perfil
        </h2>
        <p className="text-sm">
          {data.missing.length > 0
            ? `Falta preencher: ${describeMissing(data.missing)}. Perfis completos geram mais conexões na comunidade.`
            : 'Perfis completos geram mais conexões na comunidade.'}
        </p>
      </div>
      <Link to="/profile/edit" className={buttonClasses('primary', 'sm', 'self-start sm:self-center')}>
        Completar perfil
      </Link>
    </section>
  )
}
