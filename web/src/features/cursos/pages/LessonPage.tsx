import { useCallback, useMemo, useState } from 'react'
import { Link, useParams } from 'react-router'
import Markdown from 'react-markdown'
import { ArrowLeft, CheckCircle2, ChevronLeft, ChevronRight, ExternalLink, FileText, Paperclip, ThumbsUp } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/ui/toast'
import { cn } from '@/lib/cn'
import { usePageTitle } from '@/lib/usePageTitle'
import {
  accessRefusal,
  coursePath,
  failureMessage,
  isNotFound,
  lessonPath,
  useCompleteLesson,
  useCourse,
  useEnrol,
  useLesson,
  useLessonLike,
  type CourseDetail,
  type CourseProgress,
  type LessonDetail,
  type Material,
  type ProgressAnswer,
} from '../api'
import { CompletionDialog } from '../components/CompletionDialog'
import { Curriculum } from '../components/Curriculum'
import { PremiumInvite } from '@/components/PremiumInvite'
import { ProgressBar } from '../components/ProgressBar'
import { messages } from '../messages'
import { resumeAt } from '@/components/player/embed'
import { useProgressSaver } from '../useProgressSaver'
import { VideoPlayer } from '@/components/player/VideoPlayer'

function LikeButton({ courseId, lesson }: { courseId: string; lesson: LessonDetail }) {
  const like = useLessonLike(courseId, lesson.id)
  const likes = lesson.likes === 1 ? '1 curtida' : `${lesson.likes} curtidas`
  return (
    <button
      type="button"
      aria-pressed={lesson.is_liked}
      // The name holds the visible count (a voice user says what they see).
      aria-label={`Curtir aula, ${likes}`}
      onClick={() => {
        // One request at a time: a second click while a like is on its way is ignored.
        if (!like.isPending) like.mutate(!lesson.is_liked)
      }}
      className={buttonClasses('outline', 'md')}
    >
      <ThumbsUp aria-hidden="true" className={cn('h-4 w-4', lesson.is_liked && 'fill-primary text-primary')} />
      <span>{likes}</span>
    </button>
  )
}

function MaterialLink({ item, icon: Icon = FileText }: { item: { url: string; title: string }; icon?: typeof FileText }) {
  return (
    <li>
      <a href={item.url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-2 text-sm font-medium text-primary underline-offset-4 hover:underline">
        <Icon aria-hidden="true" className="h-4 w-4 shrink-0" />
        {item.title || item.url}
        <span className="sr-only"> (abre em nova aba)</span>
      </a>
    </li>
  )
}

function Materials({ lesson }: { lesson: LessonDetail }) {
  const files: Material[] = [...(lesson.support_material ? [lesson.support_material] : []), ...lesson.materials]
  if (files.length === 0 && !lesson.external_link) return null
  return (
    <section aria-labelledby="lesson-materials" className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-5 shadow-sm">
      <h2 id="lesson-materials" className="text-lg font-semibold">
        Materiais da aula
      </h2>
      <ul className="flex flex-col gap-2">
        {files.map((m, i) => (
          <MaterialLink key={`${m.url}-${i}`} item={m} icon={Paperclip} />
        ))}
        {lesson.external_link && <MaterialLink item={lesson.external_link} icon={ExternalLink} />}
      </ul>
    </section>
  )
}

/** One lesson, mounted per lesson id: the position it resumes from is read once, when it opens. */
function LessonView({
  courseId,
  lesson,
  onAnswer,
  onExpired,
}: {
  courseId: string
  lesson: LessonDetail
  onAnswer: (a: ProgressAnswer) => void
  onExpired: () => void
}) {
  const [startAt] = useState(() => resumeAt(lesson.position_seconds, lesson.duration_seconds))
  const events = useProgressSaver({ courseId, lessonId: lesson.id, startAt, enabled: !!lesson.video, onAnswer })
  const complete = useCompleteLesson(courseId, lesson.id, onAnswer)
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <header className="flex flex-col gap-1">
        <p className="text-sm text-muted-foreground">{lesson.module_title}</p>
        <h1 className="text-2xl font-bold tracking-tight">{lesson.title}</h1>
        <div className="flex flex-wrap gap-2">
          {lesson.is_free && <Badge variant="success">Grátis</Badge>}
          {lesson.is_optional && <Badge variant="outline">Opcional</Badge>}
          {lesson.duration && <span className="text-sm text-muted-foreground">{lesson.duration}</span>}
        </div>
      </header>
      {lesson.video ? (
        <VideoPlayer video={lesson.video} title={lesson.title} startAt={startAt} poster={lesson.cover_image} events={events} onExpired={onExpired} />
      ) : (
        lesson.cover_image && <img src={lesson.cover_image} alt="" className="aspect-video w-full rounded-2xl object-cover" />
      )}
      <div className="flex flex-wrap items-center gap-2">
        {lesson.is_completed ? (
          <Button variant="secondary" disabled>
            <CheckCircle2 aria-hidden="true" className="h-4 w-4" /> Aula concluída
          </Button>
        ) : (
          <Button loading={complete.isPending} onClick={() => complete.mutate()}>
            <CheckCircle2 aria-hidden="true" className="h-4 w-4" /> Marcar como concluída
          </Button>
        )}
        <LikeButton courseId={courseId} lesson={lesson} />
      </div>
      <nav aria-label="Navegação entre aulas" className="flex flex-wrap justify-between gap-2">
        {lesson.previous ? (
          <Link to={lessonPath(courseId, lesson.previous.id)} className={buttonClasses('outline')}>
            <ChevronLeft aria-hidden="true" className="h-4 w-4" /> Aula anterior
            <span className="sr-only">: {lesson.previous.title}</span>
          </Link>
        ) : (
          <span />
        )}
        {lesson.next && (
          <Link to={lessonPath(courseId, lesson.next.id)} className={buttonClasses('outline')}>
            Próxima aula
            <span className="sr-only">: {lesson.next.title}</span>
            <ChevronRight aria-hidden="true" className="h-4 w-4" />
          </Link>
        )}
      </nav>
      {(lesson.body || lesson.description) && (
        <section aria-label="Sobre a aula" className="prose max-w-none rounded-2xl border border-border bg-card p-5 shadow-sm dark:prose-invert">
          <Markdown skipHtml>{lesson.body || lesson.description}</Markdown>
        </section>
      )}
      <Materials lesson={lesson} />
    </div>
  )
}

function NotEnrolled({ courseId, message }: { courseId: string; message: string }) {
  const enrol = useEnrol(courseId)
  return (
    <section aria-label="Matrícula necessária" className="flex flex-col items-center gap-3 rounded-2xl border border-border bg-card p-8 text-center">
      <p className="font-medium">{message}</p>
      <Button
        loading={enrol.isPending}
        onClick={() =>
          enrol.mutate(undefined, {
            onSuccess: (a) => toast({ title: a.message, variant: 'success' }),
            onError: (err) => toast.error(failureMessage(err, messages.enrolFailed)),
          })
        }
      >
        {messages.enrol}
      </Button>
    </section>
  )
}

function LessonFailure({ courseId, error, retry }: { courseId: string; error: unknown; retry: () => void }) {
  const refusal = accessRefusal(error)
  if (refusal === 'premium_required' || refusal === 'trial_limit') return <PremiumInvite message={failureMessage(error, messages.premiumText)} />
  if (refusal === 'not_enrolled') return <NotEnrolled courseId={courseId} message={failureMessage(error, messages.notEnrolled)} />
  if (isNotFound(error)) {
    return (
      <p role="alert" className="py-10 text-center font-medium">
        {failureMessage(error, messages.lessonNotFound)}
      </p>
    )
  }
  return (
    <div className="flex flex-col items-center gap-3 py-10 text-center">
      <p role="alert" className="font-medium">
        {messages.loadFailed}
      </p>
      <Button variant="outline" onClick={retry}>
        {messages.retry}
      </Button>
    </div>
  )
}

function CourseSidebar({ course, lessonId }: { course: CourseDetail; lessonId: string }) {
  return (
    <aside aria-label="Aulas do curso" className="flex flex-col gap-4 lg:sticky lg:top-20 lg:self-start">
      {course.is_enrolled && (
        <div className="rounded-2xl border border-border bg-card p-4 shadow-sm">
          <ProgressBar value={course.progress} />
        </div>
      )}
      <Curriculum key={lessonId} course={course} currentLessonId={lessonId} />
    </aside>
  )
}

/** /cursos/:id/aula/:lessonId: the player, lesson list, previous/next, completion, like and materials. */
export default function LessonPage() {
  const { id = '', lessonId = '' } = useParams()
  const course = useCourse(id)
  const lesson = useLesson(id, lessonId)
  const [completed, setCompleted] = useState<CourseProgress | null>(null)
  const summary = useMemo(() => {
    for (const m of course.data?.modules ?? []) {
      const found = m.lessons.find((l) => l.id === lessonId)
      if (found) return { title: found.title, module: m.title }
    }
    return undefined
  }, [course.data, lessonId])
  usePageTitle(lesson.data?.title ?? summary?.title ?? 'Aula')
  const onAnswer = useCallback((a: ProgressAnswer) => {
    if (a.course.just_completed) setCompleted(a.course)
  }, [])

  return (
    <div className="flex flex-col gap-4 py-2">
      <Link to={coursePath(id)} className="inline-flex items-center gap-1 self-start text-sm text-primary hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" />
        {course.data ? `Voltar para ${course.data.title}` : 'Voltar para o curso'}
      </Link>
      <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_340px]">
        <div className="min-w-0">
          {lesson.isPending && (
            <div className="flex justify-center py-10">
              <Spinner label="Carregando aula..." />
            </div>
          )}
          {lesson.isError && !lesson.data && (
            <div className="flex min-w-0 flex-col gap-4">
              {/* A refused lesson still names itself: its title from the course's curriculum. */}
              <header className="flex flex-col gap-1">
                {summary && <p className="text-sm text-muted-foreground">{summary.module}</p>}
                <h1 className="text-2xl font-bold tracking-tight">{summary?.title ?? 'Aula'}</h1>
              </header>
              <LessonFailure courseId={id} error={lesson.error} retry={() => void lesson.refetch()} />
            </div>
          )}
          {lesson.data && (
            // An expired stream address is renewed by reading the lesson again.
            <LessonView key={lesson.data.id} courseId={id} lesson={lesson.data} onAnswer={onAnswer} onExpired={() => void lesson.refetch()} />
          )}
        </div>
        {course.data && <CourseSidebar course={course.data} lessonId={lessonId} />}
      </div>
      <CompletionDialog courseId={id} courseTitle={course.data?.title ?? ''} progress={completed} onClose={() => setCompleted(null)} />
    </div>
  )
}
