import { cn } from '@/lib/cn'
import { statsStrip } from '@/components/ui/statsStrip'
import { CheckCircle2, Clock, Heart, PlayCircle, TrendingUp, type LucideIcon } from 'lucide-react'
import { useVideoStatistics } from '../api'
import { formatNumber, hoursLabel } from '../format'

/** The statistics strip of /conteudos-exclusivos; nothing while loading or when the read fails. */
export function VideoStats() {
  const { data: s } = useVideoStatistics()
  if (!s) return null
  const items: Array<{ label: string; value: string; icon: LucideIcon }> = [
    { label: 'Total de vídeos', value: formatNumber(s.total_videos), icon: PlayCircle },
    { label: 'Concluídos', value: formatNumber(s.completed_videos), icon: CheckCircle2 },
    { label: 'Favoritos', value: formatNumber(s.favorite_videos), icon: Heart },
    { label: 'Progresso', value: `${Math.round(s.progress_percentage)}%`, icon: TrendingUp },
    { label: 'Horas de conteúdo', value: hoursLabel(s.total_hours_content), icon: Clock },
  ]
  return (
    <section aria-label="Suas estatísticas de vídeos">
      {/* One scrolling line on phones, so the list starts above the fold. */}
      <dl tabIndex={0} className={cn(statsStrip.list, 'sm:grid-cols-3 xl:grid-cols-5')}>
        {items.map(({ label, value, icon: Icon }) => (
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
