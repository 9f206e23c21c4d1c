import { useId } from 'react'
import { Link } from 'react-router'
import { BookOpen, Clock, Star, Users } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { FavoriteToggle } from '@/components/FavoriteToggle'
import { coursePath, useToggleFavorite, type CourseCard as Course } from '../api'
import { formatRating, preview, studentsLabel } from '../format'
import { ProgressBar } from './ProgressBar'

/** One course in the catalogue: the whole card opens the course; the heart stays its own button. */
export function CourseCard({ course }: { course: Course }) {
  const titleId = useId()
  const favorite = useToggleFavorite(course.id)
  return (
    <article aria-labelledby={titleId} className="relative flex h-full flex-col overflow-hidden rounded-2xl border border-border bg-card shadow-sm transition hover:shadow-md">
      <div className="relative aspect-video bg-muted">
        {course.thumbnail ? (
          <img src={course.thumbnail} alt="" loading="lazy" className="h-full w-full object-cover" />
        ) : (
          <div className="flex h-full items-center justify-center text-muted-foreground">
            <BookOpen aria-hidden="true" className="h-10 w-10" />
          </div>
        )}
        {course.is_completed && (
          <Badge variant="success" className="absolute left-3 top-3">
            Concluído
          </Badge>
        )}
      </div>
      <FavoriteToggle toggle={favorite} title={course.title} favorite={course.is_favorite} className="absolute right-3 top-3 z-10" />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex flex-wrap items-center gap-2 text-xs">
          {course.category && <Badge variant="secondary">{course.category.name}</Badge>}
          {course.level && <Badge variant="outline">{course.level}</Badge>}
        </div>
        <h2 id={titleId} className="text-base font-semibold leading-snug">
          {/* The stretched link makes the whole card clickable with one tab stop. */}
          <Link to={coursePath(course.id)} className="after:absolute after:inset-0 focus-visible:outline-none focus-visible:after:rounded-2xl focus-visible:after:outline-2 focus-visible:after:outline-ring">
            {course.title}
          </Link>
        </h2>
        <p className="text-sm text-muted-foreground">{preview(course.description)}</p>
        {course.instructor && <p className="text-sm font-medium">{course.instructor.name}</p>}
        <ul className="mt-auto flex flex-wrap items-center gap-x-4 gap-y-1 pt-1 text-xs text-muted-foreground">
          {course.duration && (
            <li className="inline-flex items-center gap-1">
              <Clock aria-hidden="true" className="h-3.5 w-3.5" />
              <span className="sr-only">Duração: </span>
              {course.duration}
            </li>
          )}
          <li className="inline-flex items-center gap-1">
            <Star aria-hidden="true" className="h-3.5 w-3.5 fill-amber-400 text-amber-400" />
            <span className="sr-only">Avaliação: </span>
            {formatRating(course.rating)}
            {course.total_ratings > 0 && <span aria-hidden="true">({course.total_ratings})</span>}
          </li>
          <li className="inline-flex items-center gap-1">
            <Users aria-hidden="true" className="h-3.5 w-3.5" />
            {studentsLabel(course.students)}
          </li>
        </ul>
        {course.is_enrolled && <ProgressBar value={course.progress} label={`Progresso em ${course.title}`} className="pt-2" />}
      </div>
    </article>
  )
}
