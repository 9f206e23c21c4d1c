import { Link } from 'react-router'
import { CircleCheck } from 'lucide-react'
import { buttonClasses } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { completenessFieldLabel, completenessPercent } from '../completeness'
import type { CompletenessField, Profile } from '../types'

/** How complete the own profile is, with what is missing and a way to fix it. */
export function CompletenessCard({ profile, missing }: { profile: Profile; missing: CompletenessField[] }) {
  const percent = completenessPercent(profile)
  const complete = missing.length === 0
  return (
    <section aria-labelledby="completeness-title">
    <Card className="flex flex-col gap-3 p-5">
      <div className="flex items-center justify-between gap-3">
        <h2 id="completeness-title" className="text-base font-semibold">
          Perfil {percent}% completo
        </h2>
        {complete && <CircleCheck aria-hidden="true" className="h-5 w-5 text-green-700 dark:text-green-400" />}
      </div>
      <div
        role="progressbar"
        aria-labelledby="completeness-title"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full bg-primary" style={{ width: `${percent}%` }} />
      </div>
      {complete ? (
        <p className="text-sm text-muted-foreground">Seu perfil está completo. Obrigado!</p>
      ) : (
        <>
          <p className="text-sm">Complete seu perfil para aparecer melhor na comunidade. Falta preencher:</p>
          <ul className="flex flex-wrap gap-2" aria-label="Campos a preencher">
            {missing.map((field) => (
              <li key={field} className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-950 dark:bg-amber-900 dark:text-amber-50">
                {completenessFieldLabel[field]}
              </li>
            ))}
          </ul>
          <Link to="/profile/edit" className={buttonClasses('primary', 'sm', 'self-start')}>
            Completar perfil
          </Link>
        </>
      )}
    </Card>
    </section>
  )
}
