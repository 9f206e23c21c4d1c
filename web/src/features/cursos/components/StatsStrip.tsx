import { Award, BookOpen, CheckCircle2, Clock, Coins, Heart, type LucideIcon } from 'lucide-react'
import { useCourseStatistics } from '../api'
import { formatNumber } from '../format'

/** The statistics strip of /cursos; nothing while loading or when the read fails. */
export function StatsStrip() {
  const { data: s } = useCourseStatistics()
  if (!s) return null
  const items: Array<{ label: string; value: string; icon: LucideIcon }> = [
    { label: 'Matriculados', value: formatNumber(s.enrolled_courses), icon: BookOpen },
    { label: 'Concluídos', value: formatNumber(s.completed_courses), icon: CheckCircle2 },
    { label: 'Favoritos', value: formatNumber(s.favorite_courses), icon: Heart },
    { label: 'VetCoins em cursos', value: formatNumber(s.total_points), icon: Coins },
    { label: 'Progresso médio', value: `${Math.round(s.average_progress)}%`, icon: Award },
    { label: 'Horas concluídas', value: `${formatNumber(s.completed_hours)}h`, icon: Clock },
  ]
  return (
    <section aria-label="Suas estatísticas de cursos">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-6">
        {items.map(({ label, value, icon: Icon }) => (
          // dt and dd sit directly in their group (a definition list allows nothing else there); the icon lives in the dt.
          <div key={label} className="flex min-w-0 flex-col gap-1 rounded-xl border border-border bg-card p-3 shadow-sm">
            <dt className="flex min-w-0 items-center gap-2 text-xs text-muted-foreground">
              <Icon aria-hidden="true" className="h-4 w-4 shrink-0 text-primary" />
              <span className="truncate">{label}</span>
            </dt>
            <dd className="text-lg font-bold leading-tight">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
