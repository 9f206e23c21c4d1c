import { useSearchParams } from 'react-router'
import { GraduationCap } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { useCourseList } from '../api'
import { CourseCard } from '../components/CourseCard'
import { CourseFiltersBar } from '../components/CourseFiltersBar'
import { StatsStrip } from '../components/StatsStrip'
import { hasFilters, parseQuery, toSearchParams, type CourseQuery } from '../format'
import { messages } from '../messages'
import { useNextPageOnScroll } from '@/lib/useNextPageOnScroll'

function CourseResults({ query }: { query: CourseQuery }) {
  const list = useCourseList(query)
  const sentinel = useNextPageOnScroll(list)
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = list

  if (list.isPending) {
    return (
      <div className="flex justify-center py-10">
        <Spinner label="Carregando cursos..." />
      </div>
    )
  }
  if (list.isError) {
    return (
      <div className="flex flex-col items-center gap-3 py-10 text-center">
        <p role="alert" className="font-medium">
          {messages.loadFailed}
        </p>
        <Button variant="outline" onClick={() => void list.refetch()}>
          {messages.retry}
        </Button>
      </div>
    )
  }
  const courses = list.data.pages.flatMap((p) => p.courses)
  if (courses.length === 0) {
    return (
      <div className="py-10 text-center text-muted-foreground">
        <p className="font-medium text-foreground">{messages.noCourses}</p>
        {hasFilters(query) && <p className="text-sm">{messages.noCoursesHint}</p>}
      </div>
    )
  }
  return (
    <div className="flex flex-col gap-4">
      <ul aria-label="Cursos" aria-busy={isFetchingNextPage} className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {courses.map((c) => (
          <li key={c.id}>
            <CourseCard course={c} />
          </li>
        ))}
      </ul>
      {hasNextPage ? (
        <div ref={sentinel} className="flex flex-col items-center gap-2 py-2">
          {isFetchNextPageError && (
            <p role="alert" className="text-sm font-medium text-destructive">
              {messages.loadFailed}
            </p>
          )}
          <Button variant="outline" loading={isFetchingNextPage} onClick={() => void fetchNextPage()}>
            {messages.loadMore}
          </Button>
        </div>
      ) : (
        <p className="py-2 text-center text-sm text-muted-foreground">{messages.endOfList}</p>
      )}
    </div>
  )
}

/** /cursos: statistics, search, filters and sort kept in the URL, and the catalogue 20 at a time. */
export default function CoursesPage() {
  usePageTitle('Cursos')
  const [params, setParams] = useSearchParams()
  const query = parseQuery(params)
  return (
    <div className="flex flex-col gap-5 py-2">
      <header className="flex flex-col gap-1">
        <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight">
          <GraduationCap aria-hidden="true" className="size-7 text-primary" /> Cursos
        </h1>
        <p className="text-muted-foreground">Aprenda com especialistas, acompanhe seu progresso e ganhe VetCoins e certificados.</p>
      </header>
      <StatsStrip />
      <CourseFiltersBar query={query} onChange={(q) => setParams(toSearchParams(q), { replace: true })} />
      <CourseResults query={query} />
    </div>
  )
}
