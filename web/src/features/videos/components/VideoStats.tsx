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
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-5">
        {items.map(({ label, value, icon: Icon }) => (
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
