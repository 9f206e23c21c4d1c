import { useId, useState } from 'react'
import { Link } from 'react-router'
import { CheckCircle2, ChevronDown, Circle, Lock } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { cn } from '@/lib/cn'
import { lessonPath, type CourseDetail, type ModuleSummary } from '../api'

function lessonsLabel(n: number): string {
  return n === 1 ? '1 aula' : `${n} aulas`
}

function ModuleItem({ courseId, module, open, onToggle, currentLessonId }: { courseId: string; module: ModuleSummary; open: boolean; onToggle: () => void; currentLessonId?: string }) {
  const panelId = useId()
  const done = module.lessons.filter((l) => l.is_completed).length
  return (
    <li className="border-b border-border last:border-b-0">
      <h3>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={onToggle}
          className="flex w-full items-center gap-3 px-4 py-3 text-left hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring"
        >
          <span className="flex min-w-0 flex-1 flex-col">
            <span className="font-semibold">
              Módulo {module.order}: {module.title}
            </span>
            <span className="text-xs font-normal text-muted-foreground">
              {lessonsLabel(module.lessons.length)}
              {module.duration && ` · ${module.duration}`} · {done}/{module.lessons.length} concluídas
            </span>
          </span>
          <ChevronDown aria-hidden="true" className={cn('h-5 w-5 shrink-0 transition-transform', open && 'rotate-180')} />
        </button>
      </h3>
      <ol id={panelId} hidden={!open} aria-label={`Aulas do módulo ${module.title}`} className="flex flex-col pb-2">
        {module.lessons.map((l) => {
          const current = l.id === currentLessonId
          const status = l.is_completed ? (
            <CheckCircle2 aria-label="Concluída" role="img" className="h-5 w-5 shrink-0 text-green-600" />
          ) : l.can_access ? (
            <Circle aria-label="Não concluída" role="img" className="h-5 w-5 shrink-0 text-muted-foreground" />
          ) : (
            <Lock aria-label="Bloqueada" role="img" className="h-5 w-5 shrink-0 text-muted-foreground" />
          )
          const title = <span className="min-w-0 flex-1">{l.title}</span>
          const meta = (
            <span className="flex shrink-0 items-center gap-2 text-xs text-muted-foreground">
              {l.is_free && <Badge variant="success">Grátis</Badge>}
              {l.is_optional && <Badge variant="outline">Opcional</Badge>}
              {l.duration && <span>{l.duration}</span>}
            </span>
          )
          const row = 'flex items-center gap-3 px-4 py-2 text-sm'
          return (
            <li key={l.id}>
              {l.can_access ? (
                <Link
                  to={lessonPath(courseId, l.id)}
                  aria-current={current ? 'page' : undefined}
                  className={cn(row, 'hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring', current && 'bg-accent font-semibold text-accent-foreground')}
                >
                  {status}
                  {title}
                  {meta}
                </Link>
              ) : (
                <div className={cn(row, 'text-muted-foreground')}>
                  {status}
                  {title}
                  {meta}
                </div>
              )}
            </li>
          )
        })}
      </ol>
    </li>
  )
}

/** The curriculum accordion: modules in order, lessons with durations, 'Grátis' badges and completion ticks. */
export function Curriculum({ course, currentLessonId, title = 'Conteúdo do curso' }: { course: CourseDetail; currentLessonId?: string; title?: string }) {
  const headingId = useId()
  const initial =
    course.modules.find((m) => m.lessons.some((l) => l.id === currentLessonId))?.id ?? course.continue?.module_id ?? course.modules[0]?.id
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set(initial ? [initial] : []))
  const toggle = (id: string) =>
    setOpen((prev) => {
      const next = new Set(prev)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  return (
    <section aria-labelledby={headingId} className="overflow-hidden rounded-2xl border border-border bg-card shadow-sm">
      <h2 id={headingId} className="border-b border-border px-4 py-3 text-lg font-semibold">
        {title}
      </h2>
      <ol className="flex flex-col">
        {course.modules.map((m) => (
          <ModuleItem key={m.id} courseId={course.id} module={m} open={open.has(m.id)} onToggle={() => toggle(m.id)} currentLessonId={currentLessonId} />
        ))}
      </ol>
    </section>
  )
}
