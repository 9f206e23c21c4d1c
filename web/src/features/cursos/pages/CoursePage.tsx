import { cn } from '@/lib/cn'
import { useState, type ReactNode } from 'react'
import { Link, useParams } from 'react-router'
import { ArrowLeft, Award, BookOpen, CheckCircle2, Clock, Star, Users } from 'lucide-react'
import { Avatar } from '@/components/ui/Avatar'
import { Badge } from '@/components/ui/Badge'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/ui/toast'
import { usePageTitle } from '@/lib/usePageTitle'
import {
  accessRefusal,
  certificatePath,
  failureMessage,
  isNotFound,
  lessonPath,
  useCourse,
  useEnrol,
  useToggleFavorite,
  type CourseDetail,
} from '../api'
import { Curriculum } from '../components/Curriculum'
import { ProgressBar } from '../components/ProgressBar'
import { ENROL_POINTS, formatRating, studentsLabel } from '../format'
import { messages } from '../messages'
import { FavoriteToggle } from '@/components/FavoriteToggle'
import { toVideo } from '@/components/player/embed'
import { VideoPlayer } from '@/components/player/VideoPlayer'

function firstLesson(course: CourseDetail): string | undefined {
  return course.modules.flatMap((m) => m.lessons)[0]?.id
}

function EnrolAction({ course }: { course: CourseDetail }) {
  const enrol = useEnrol(course.id)
  const [refusal, setRefusal] = useState<string | null>(null)
  return (
    <div className="flex flex-col gap-2">
      {/* Below 1024 px the button rides in a bar above the bottom navigation, so
          'Matricular-se' is on screen from the top of the page, not after the curriculum. */}
      <div
        data-testid="enrol-bar"
        className="max-lg:fixed max-lg:inset-x-0 max-lg:bottom-[calc(4rem+env(safe-area-inset-bottom))] max-lg:z-30 max-lg:border-t max-lg:border-border max-lg:bg-card/95 max-lg:px-4 max-lg:py-3 max-lg:backdrop-blur"
      >
        <Button
          size="lg"
          className="w-full"
          loading={enrol.isPending}
          onClick={() => {
            setRefusal(null)
            enrol.mutate(undefined, {
              onSuccess: (a) => toast({ title: a.message, description: a.points_awarded > 0 ? `+${a.points_awarded} VetCoins` : undefined, variant: 'success' }),
              onError: (err) => {
                // The plan's limit is a decision, not a failure: it stays on screen with the way out.
                if (accessRefusal(err) === 'trial_limit') setRefusal(failureMessage(err, messages.enrolFailed))
                else toast.error(failureMessage(err, messages.enrolFailed))
              },
            })
          }}
        >
          {messages.enrol}
        </Button>
      </div>
      <p className="text-sm text-muted-foreground">Ganhe {ENROL_POINTS} VetCoins ao se matricular.</p>
      {refusal && (
        <div role="alert" className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-50">
          <p>{refusal}</p>
          <Link to="/pricing" className={buttonClasses('primary', 'sm', 'self-start')}>
            {messages.seePlans}
          </Link>
        </div>
      )}
    </div>
  )
}

function ProgressAction({ course }: { course: CourseDetail }) {
  const first = firstLesson(course)
  if (course.is_completed) {
    return (
      <div className="flex flex-col gap-3">
        <p role="status" className="flex items-center gap-2 font-semibold text-green-700 dark:text-green-400">
          <CheckCircle2 aria-hidden="true" className="h-5 w-5" /> Curso concluído
        </p>
        <ProgressBar value={course.progress} />
        <div className="flex flex-wrap gap-2">
          {course.my_certificate && (
            <Link to={certificatePath(course.id)} className={buttonClasses('primary')}>
              <Award aria-hidden="true" className="h-4 w-4" /> Ver certificado
            </Link>
          )}
          {first && (
            <Link to={lessonPath(course.id, first)} className={buttonClasses('outline')}>
              Revisar aulas
            </Link>
          )}
        </div>
      </div>
    )
  }
  const target = course.continue?.lesson_id ?? first
  return (
    <div className="flex flex-col gap-3">
      <ProgressBar value={course.progress} />
      <p className="text-sm text-muted-foreground">
        {course.completed_lessons} de {course.required_lessons} aulas obrigatórias concluídas
      </p>
      {target && (
        <Link to={lessonPath(course.id, target)} className={buttonClasses('primary', 'lg', 'self-start')}>
          {messages.continue}
        </Link>
      )}
    </div>
  )
}

function ListSection({ title, items }: { title: string; items: string[] }) {
  if (items.length === 0) return null
  return (
    <Section title={title}>
      <ul className="grid gap-2 sm:grid-cols-2">
        {items.map((item, i) => (
          <li key={i} className="flex items-start gap-2 text-sm">
            <CheckCircle2 aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-primary" />
            {item}
          </li>
        ))}
      </ul>
    </Section>
  )
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-5 shadow-sm">
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </section>
  )
}

function CourseView({ course }: { course: CourseDetail }) {
  const favorite = useToggleFavorite(course.id)
  const intro = course.video_intro ? toVideo(course.video_intro.source, course.video_intro.url) : null
  return (
    <article className={cn('flex flex-col gap-5', !course.is_enrolled && 'max-lg:pb-20')}>
      <header className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2">
          {course.category && <Badge variant="secondary">{course.category.name}</Badge>}
          {course.level && <Badge variant="outline">{course.level}</Badge>}
        </div>
        <h1 className="text-2xl font-bold tracking-tight md:text-3xl">{course.title}</h1>
        <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-muted-foreground">
          {course.instructor && <li>{course.instructor.name}</li>}
          <li className="inline-flex items-center gap-1">
            <Star aria-hidden="true" className="h-4 w-4 fill-amber-400 text-amber-400" />
            <span className="sr-only">Avaliação: </span>
            {formatRating(course.rating)}
            {course.total_ratings > 0 && ` (${course.total_ratings} avaliações)`}
          </li>
          <li className="inline-flex items-center gap-1">
            <Users aria-hidden="true" className="h-4 w-4" />
            {studentsLabel(course.students)}
          </li>
          {course.duration && (
            <li className="inline-flex items-center gap-1">
              <Clock aria-hidden="true" className="h-4 w-4" />
              <span className="sr-only">Duração: </span>
              {course.duration}
            </li>
          )}
          <li className="inline-flex items-center gap-1">
            <BookOpen aria-hidden="true" className="h-4 w-4" />
            {course.lessons_count === 1 ? '1 aula' : `${course.lessons_count} aulas`}
          </li>
        </ul>
      </header>

      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_320px]">
        <div className="flex min-w-0 flex-col gap-5">
          {intro ? (
            <section aria-label="Vídeo de apresentação">
              <VideoPlayer video={intro} title={`Apresentação: ${course.title}`} poster={course.thumbnail} />
            </section>
          ) : (
            course.thumbnail && <img src={course.thumbnail} alt="" className="aspect-video w-full rounded-2xl object-cover" />
          )}
          {course.description && (
            <Section title="Sobre o curso">
              <p className="whitespace-pre-line text-sm leading-relaxed">{course.description}</p>
            </Section>
          )}
          <ListSection title="O que você vai aprender" items={course.what_you_will_learn} />
          <ListSection title="Objetivos" items={course.objectives} />
          <ListSection title="Requisitos" items={course.requirements} />
          <Curriculum course={course} />
        </div>

        <aside aria-label="Sua matrícula" className="flex flex-col gap-4 lg:sticky lg:top-20 lg:self-start">
          <Card className="flex flex-col gap-4 p-5">
            {course.is_enrolled ? <ProgressAction course={course} /> : <EnrolAction course={course} />}
            <FavoriteToggle toggle={favorite} title={course.title} favorite={course.is_favorite} withText className="self-start" />
            {course.certificate && !course.is_completed && (
              <p className="flex items-center gap-2 text-sm text-muted-foreground">
                <Award aria-hidden="true" className="h-4 w-4 text-primary" /> Certificado de conclusão
              </p>
            )}
          </Card>
          {course.instructor && (
            <Card className="flex flex-col gap-3 p-5">
              <h2 className="text-sm font-semibold uppercase tracking-wide text-muted-foreground">Instrutor</h2>
              <div className="flex items-center gap-3">
                <Avatar src={course.instructor.avatar} name={course.instructor.name} className="h-12 w-12" />
                <div className="flex min-w-0 flex-col">
                  <span className="font-semibold">{course.instructor.name}</span>
                  {course.instructor.title && <span className="text-sm text-muted-foreground">{course.instructor.title}</span>}
                </div>
              </div>
            </Card>
          )}
        </aside>
      </div>
    </article>
  )
}

/** /cursos/:id: intro, what you will learn, curriculum, instructor, enrolment, favorite, progress and 'Continuar'. */
export default function CoursePage() {
  const { id = '' } = useParams()
  const course = useCourse(id)
  usePageTitle(course.data?.title ?? 'Curso')
  return (
    <div className="flex flex-col gap-4 py-2">
      <Link to="/cursos" className="inline-flex items-center gap-1 self-start text-sm text-primary hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" /> Voltar para Cursos
      </Link>
      {course.isPending && (
        <div className="flex justify-center py-10">
          <Spinner label="Carregando curso..." />
        </div>
      )}
      {course.isError &&
        !course.data &&
        (isNotFound(course.error) ? (
          <p role="alert" className="py-10 text-center font-medium">
            {messages.courseNotFound}
          </p>
        ) : (
          <div className="flex flex-col items-center gap-3 py-10 text-center">
            <p role="alert" className="font-medium">
              {messages.loadFailed}
            </p>
            <Button variant="outline" onClick={() => void course.refetch()}>
              {messages.retry}
            </Button>
          </div>
        ))}
      {course.data && <CourseView course={course.data} />}
    </div>
  )
}
