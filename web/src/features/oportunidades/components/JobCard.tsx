import { Link } from 'react-router'
import { Briefcase, CalendarClock, MapPin, Star } from 'lucide-react'
import { Card } from '@/components/ui/Card'
import { Badge } from '@/components/ui/Badge'
import type { Job } from '../api'
import { CONTRACTS, STATUS_LABELS, WORKPLACES, dayLabel, salaryLabel } from '../format'

/** One job in a list: title (the link to its page), where, contract, pay, closing day. */
export function JobCard({ job, headingLevel = 2 }: { job: Job; headingLevel?: 2 | 3 }) {
  const H = headingLevel === 2 ? 'h2' : 'h3'
  return (
    <Card className="flex h-full flex-col gap-2 p-4" data-testid="job-card">
      <div className="flex flex-wrap items-center gap-2">
        {job.featured && (
          <Badge>
            <Star aria-hidden className="mr-1 inline size-3" /> Destaque
          </Badge>
        )}
        <Badge variant="secondary">{CONTRACTS[job.contract] ?? job.contract}</Badge>
        <Badge variant="outline">{WORKPLACES[job.workplace] ?? job.workplace}</Badge>
        {job.saved && <Badge variant="outline">Salva</Badge>}
        {job.application && <Badge variant="outline">Candidatura: {STATUS_LABELS[job.application.status]}</Badge>}
      </div>
      <H className="text-lg font-semibold leading-snug">
        <Link to={`/oportunidades/${job.slug}`} className="hover:underline focus-visible:underline">
          {job.title}
        </Link>
      </H>
      <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
        <Briefcase aria-hidden className="size-4 shrink-0" /> {job.organization}
      </p>
      <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
        <MapPin aria-hidden className="size-4 shrink-0" /> {job.city}/{job.state}
      </p>
      <p className="text-sm font-medium">{salaryLabel(job)}</p>
      <p className="mt-auto flex items-center gap-1.5 text-xs text-muted-foreground">
        <CalendarClock aria-hidden className="size-4 shrink-0" /> Inscrições até {dayLabel(job.closes_on)}
      </p>
    </Card>
  )
}
