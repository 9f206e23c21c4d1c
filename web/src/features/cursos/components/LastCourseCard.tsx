import { Link } from 'react-router'
import { BookOpen } from 'lucide-react'
import { buttonClasses } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { coursePath, lessonPath, useLastCourse, useMyCertificates } from '../api'
import { messages } from '../messages'
import { ProgressBar } from './ProgressBar'

/** The home's "Continue de onde parou": the course last studied, or the invitation to browse. */
export function LastCourseCard() {
  const last = useLastCourse()
  const c = last.data
  // No course in progress: a member who already finished one (holds a
  // certificate) is not told they never started any.
  const certificates = useMyCertificates(last.isSuccess && !c)
  const finishedSome = (certificates.data?.certificates.length ?? 0) > 0
  return (
    <Card role="region" aria-labelledby="last-course-title" className="flex flex-col">
      <CardHeader>
        <div className="flex items-center gap-2">
          <BookOpen aria-hidden="true" className="h-5 w-5 text-primary" />
          <CardTitle id="last-course-title" className="text-base">
            {messages.lastCourseTitle}
          </CardTitle>
        </div>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col justify-between gap-4">
        {last.isPending && <CardDescription>Carregando...</CardDescription>}
        {last.isError && <CardDescription role="alert">{messages.loadFailed}</CardDescription>}
        {last.isSuccess && !c && !certificates.isPending && (
          <>
            <CardDescription>{finishedSome ? messages.lastCourseAllDone : messages.lastCourseEmpty}</CardDescription>
            <Link to="/cursos" className={buttonClasses('outline', 'sm', 'self-start')}>
              {messages.explore}
            </Link>
          </>
        )}
        {c && (
          <>
            <div className="flex gap-3">
              {c.thumbnail && <img src={c.thumbnail} alt="" className="h-14 w-20 shrink-0 rounded-lg object-cover" />}
              <div className="flex min-w-0 flex-1 flex-col gap-2">
                <p className="font-semibold leading-tight">{c.title}</p>
                <ProgressBar value={c.progress} label={`Progresso em ${c.title}`} />
              </div>
            </div>
            <Link
              to={c.continue ? lessonPath(c.id, c.continue.lesson_id) : coursePath(c.id)}
              className={buttonClasses('primary', 'sm', 'self-start')}
            >
              {messages.continue}
            </Link>
          </>
        )}
      </CardContent>
    </Card>
  )
}
