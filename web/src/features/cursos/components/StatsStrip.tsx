import { cn } from '@/lib/cn'
import { statsStrip } from '@/components/ui/statsStrip'
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
      {/* One scrolling line on phones, so the list starts above the fold. */}
      <dl tabIndex={0} className={cn(statsStrip.list, 'sm:grid-cols-3 xl:grid-cols-6')}>
        {items.map(({ label, value, icon: Icon }) => (
          // dt and dd sit directly in their group (a definition list allows nothing else there); the icon lives in the dt.
          <div key={label} className={statsStrip.item}>
            <dt className={statsStrip.term}>
              <Icon aria-hidden="true" className="h-4 w-4 shrink-0 text-primary" />
              <span>{label}</span>
            </dt>
            <dd className={statsStrip.value}>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  )
}
