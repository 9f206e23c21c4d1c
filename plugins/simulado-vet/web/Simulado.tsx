import { useEffect, useRef, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ArrowLeft, ArrowRight, Check, Clock, Coins, Crown, Flag, History as HistoryIcon, X } from 'lucide-react'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api'
import { cn } from '@/lib/cn'
import { toolFetch } from '@/features/ferramentas'
import { TOOL, formatClock, getOverview, letters, overviewKey, type Attempt, type History, type Question } from './api'

const base = '/ferramentas/simulado-vet'

/** Premium invitation shown when the trial limit refuses a simulado. */
export function PremiumInvite({ reason }: { reason: string }) {
  return (
    <Card role="alert">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Crown aria-hidden="true" className="size-5" /> Limite do plano atingido
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col items-start gap-3">
        <p>{reason}</p>
        <Link to="/pricing" className={buttonClasses('primary')}>
          Ver Planos
        </Link>
      </CardContent>
    </Card>
  )
}

/** /ferramentas/simulado-vet: choose areas and size, or resume the open simulado. */
export function SimuladoStart() {
  const navigate = useNavigate()
  const qc = useQueryClient()
  const overview = useQuery({ queryKey: overviewKey, queryFn: getOverview, staleTime: 0 })
  const [areas, setAreas] = useState<string[]>([])
  const [size, setSize] = useState(10)
  const start = useMutation({
    mutationFn: () => toolFetch<Attempt>(TOOL, 'simulados', { method: 'POST', body: { areas, size } }),
    onSuccess: async () => {
      await qc.invalidateQueries({ queryKey: overviewKey })
      navigate(`${base}/quiz`)
    },
  })
  if (overview.isPending) return <Spinner />
  if (overview.error) return <p role="alert">{overview.error.message}</p>
  const o = overview.data
  const refused = start.error instanceof ApiError && start.error.status === 403
  return (
    <div className="flex flex-col gap-4">
      {o.open.simulado && (
        <Card>
          <CardContent className="flex flex-wrap items-center justify-between gap-3 pt-6">
            <p>Você tem um simulado em andamento. Suas respostas estão salvas.</p>
            <Link to={`${base}/quiz`} className={buttonClasses('primary')}>
              Continuar simulado
            </Link>
          </CardContent>
        </Card>
      )}
      <form
        className="flex flex-col gap-4"
        aria-label="Novo simulado"
        onSubmit={(e) => {
          e.preventDefault()
          start.mutate()
        }}
      >
        <fieldset className="rounded-xl border border-border p-4">
          <legend className="px-1 font-semibold">Áreas</legend>
          <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            {o.areas.map((a) => (
              <label key={a.value} className="flex min-h-11 items-center gap-2 rounded-lg px-2 hover:bg-muted">
                <input
                  type="checkbox"
                  className="size-5"
                  checked={areas.includes(a.value)}
                  onChange={(e) => setAreas(e.target.checked ? [...areas, a.value] : areas.filter((x) => x !== a.value))}
                />
                <span>{a.label}</span>
                <span className="ml-auto text-sm text-muted-foreground">{a.count} questões</span>
              </label>
            ))}
          </div>
          <Button variant="link" size="sm" className="px-0" onClick={() => setAreas(o.areas.map((a) => a.value))}>
            Marcar todas
          </Button>
          {start.error instanceof ApiError && start.error.fields.areas && (
            <p className="text-sm text-destructive">{start.error.fields.areas}</p>
          )}
        </fieldset>
        <fieldset className="rounded-xl border border-border p-4">
          <legend className="px-1 font-semibold">Número de questões</legend>
          <div className="flex gap-2">
            {o.sizes.map((n) => (
              <label key={n} className={cn('flex min-h-11 flex-1 cursor-pointer items-center justify-center rounded-lg border', size === n ? 'border-primary bg-primary/10 font-semibold' : 'border-border')}>
                <input type="radio" name="size" className="sr-only" value={n} checked={size === n} onChange={() => setSize(n)} />
                {n} questões
              </label>
            ))}
          </div>
          <p className="mt-2 text-sm text-muted-foreground">
            <Clock aria-hidden="true" className="mr-1 inline size-4" />
            Tempo: {formatClock(size * o.seconds_per_question)} ({o.seconds_per_question} segundos por questão). O cronômetro corre no servidor: ao acabar o tempo, o simulado é finalizado com as respostas salvas.
          </p>
        </fieldset>
        <p className="text-sm text-muted-foreground">
          <Coins aria-hidden="true" className="mr-1 inline size-4" />
          {o.rule}
        </p>
        {o.limit.limit >= 0 && (
          <p className="text-sm">
            Simulados do seu plano: {Math.min(o.limit.used, o.limit.limit)} de {o.limit.limit} usados.
          </p>
        )}
        {refused && start.error ? (
          <PremiumInvite reason={start.error.message} />
        ) : (
          start.error && <p role="alert" className="text-destructive">{start.error.message}</p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" loading={start.isPending} disabled={areas.length === 0 || !!o.open.simulado}>
            Começar simulado
          </Button>
          <Link to={`${base}/history`} className={buttonClasses('outline')}>
            <HistoryIcon aria-hidden="true" className="size-4" /> Histórico
          </Link>
        </div>
      </form>
    </div>
  )
}

/** /ferramentas/simulado-vet/quiz: the open simulado, resumed from the server. */
export function SimuladoExam() {
  const navigate = useNavigate()
  const overview = useQuery({ queryKey: overviewKey, queryFn: getOverview, staleTime: 0 })
  // Read once on opening: a later refetch (after submitting) must not send
  // the member back to the start page while the result opens.
  const [id, setId] = useState<string | null | undefined>(undefined)
  useEffect(() => {
    if (overview.data && id === undefined) setId(overview.data.open.simulado ?? null)
  }, [overview.data, id])
  useEffect(() => {
    if (id === null) navigate(base, { replace: true })
  }, [id, navigate])
  if (overview.isPending || !id) return <Spinner />
  return <Exam id={id} />
}

function Exam({ id }: { id: string }) {
  const navigate = useNavigate()
  const qc = useQueryClient()
  const attemptKey = ['tools', TOOL, 'simulado', id]
  const attempt = useQuery({ queryKey: attemptKey, queryFn: () => toolFetch<Attempt>(TOOL, `simulados/${id}`), staleTime: 0 })
  const [current, setCurrent] = useState(0)
  const [left, setLeft] = useState<number | null>(null)
  const [saveError, setSaveError] = useState('')
  const deadline = useRef<number | null>(null)
  const a = attempt.data
  useEffect(() => {
    if (a?.remaining_seconds !== undefined) deadline.current = Date.now() + a.remaining_seconds * 1000
  }, [a?.remaining_seconds])
  useEffect(() => {
    const t = setInterval(() => {
      if (deadline.current !== null) setLeft(Math.max(0, Math.round((deadline.current - Date.now()) / 1000)))
    }, 1000)
    return () => clearInterval(t)
  }, [])
  const finished = a?.status === 'submitted'
  // The result page and the start page read the overview again on opening.
  useEffect(() => {
    if (finished) navigate(`${base}/resultado/${id}`, { replace: true })
  }, [finished, id, navigate])
  // When the time is up the server submits on the next read.
  useEffect(() => {
    if (left === 0) void attempt.refetch()
  }, [left]) // eslint-disable-line react-hooks/exhaustive-deps

  const save = useMutation({
    mutationFn: (v: { pos: number; answer?: number; marked?: boolean }) =>
      toolFetch<unknown>(TOOL, `simulados/${id}/answers/${v.pos}`, { method: 'PUT', body: { answer: v.answer, marked: v.marked } }),
    onMutate: (v) => {
      setSaveError('')
      qc.setQueryData<Attempt>(attemptKey, (old) =>
        old && {
          ...old,
          questions: old.questions.map((q) =>
            q.pos === v.pos ? { ...q, answer: v.answer ?? q.answer, marked: v.marked ?? q.marked } : q,
          ),
        },
      )
    },
    onError: (e) => {
      setSaveError(e.message)
      void attempt.refetch()
    },
  })
  const submit = useMutation({
    mutationFn: () => toolFetch<Attempt>(TOOL, `simulados/${id}/submit`, { method: 'POST' }),
    onSuccess: (res) => qc.setQueryData(attemptKey, res),
  })
  if (attempt.isPending) return <Spinner />
  if (attempt.error) return <p role="alert">{attempt.error.message}</p>
  if (!a || finished) return <Spinner />
  const q = a.questions[current]
  if (!q) return null
  const answered = a.questions.filter((x) => x.answer !== null).length
  const marked = a.questions.filter((x) => x.marked).length
  return (
    <div className="flex flex-col gap-4">
      <div className="sticky top-0 z-10 flex flex-wrap items-center justify-between gap-2 rounded-xl border border-border bg-card p-3">
        <p className="font-semibold" role="timer" aria-live="off" aria-label="Tempo restante">
          <Clock aria-hidden="true" className="mr-1 inline size-5" />
          {formatClock(left ?? a.remaining_seconds ?? 0)}
        </p>
        <p className="text-sm" aria-live="polite">
          {answered} de {a.size} respondidas{marked > 0 ? ` · ${marked} para revisar` : ''}
        </p>
      </div>
      <nav aria-label="Questões" className="flex flex-wrap gap-1.5">
        {a.questions.map((x, i) => (
          <button
            key={x.pos}
            type="button"
            onClick={() => setCurrent(i)}
            aria-current={i === current ? 'step' : undefined}
            aria-label={`Questão ${x.pos}${x.answer !== null ? ', respondida' : ''}${x.marked ? ', marcada para revisar' : ''}`}
            className={cn(
              'relative size-10 rounded-lg border text-sm font-medium',
              x.answer !== null ? 'border-primary bg-primary/15' : 'border-border',
              i === current && 'ring-2 ring-primary',
            )}
          >
            {x.pos}
            {x.marked && <Flag aria-hidden="true" className="absolute -right-1 -top-1 size-3.5 text-amber-600" />}
          </button>
        ))}
      </nav>
      <QuestionCard
        q={q}
        total={a.size}
        onChoose={(answer) => save.mutate({ pos: q.pos, answer })}
        footer={
          <Button variant="outline" size="sm" aria-pressed={q.marked} onClick={() => save.mutate({ pos: q.pos, marked: !q.marked })}>
            <Flag aria-hidden="true" className="size-4" /> {q.marked ? 'Desmarcar revisão' : 'Marcar para revisar'}
          </Button>
        }
      />
      {saveError && <p role="alert" className="text-destructive">{saveError}</p>}
      <div className="flex flex-wrap justify-between gap-2">
        <Button variant="outline" disabled={current === 0} onClick={() => setCurrent(current - 1)}>
          <ArrowLeft aria-hidden="true" className="size-4" /> Anterior
        </Button>
        {current < a.size - 1 ? (
          <Button variant="outline" onClick={() => setCurrent(current + 1)}>
            Próxima <ArrowRight aria-hidden="true" className="size-4" />
          </Button>
        ) : null}
        <Button
          loading={submit.isPending}
          onClick={() => {
            const blank = a.size - answered
            if (blank === 0 || window.confirm(`Há ${blank} questões sem resposta. Finalizar mesmo assim?`)) submit.mutate()
          }}
        >
          Finalizar simulado
        </Button>
      </div>
      {submit.error && <p role="alert" className="text-destructive">{submit.error.message}</p>}
    </div>
  )
}

/** A question with its options as a labelled radio group. */
export function QuestionCard({
  q,
  total,
  onChoose,
  footer,
  locked,
}: {
  q: Question
  total: number
  onChoose?: (answer: number) => void
  footer?: React.ReactNode
  locked?: boolean
}) {
  const reveal = q.correct !== undefined
  return (
    <Card>
      <CardHeader>
        <p className="text-sm text-muted-foreground">
          Questão {q.pos} de {total} · {q.area_label}
        </p>
        <CardTitle id={`q-${q.pos}`} className="whitespace-pre-line text-base leading-relaxed">
          {q.statement}
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <div role="radiogroup" aria-labelledby={`q-${q.pos}`} className="flex flex-col gap-2">
          {q.options.map((opt, i) => {
            const chosen = q.answer === i
            const right = reveal && q.correct === i
            const wrong = reveal && chosen && q.correct !== i
            return (
              <button
                key={i}
                type="button"
                role="radio"
                aria-checked={chosen}
                disabled={locked || reveal}
                onClick={() => onChoose?.(i)}
                className={cn(
                  'flex min-h-11 items-start gap-3 rounded-lg border p-3 text-left',
                  chosen ? 'border-primary bg-primary/10' : 'border-border hover:bg-muted',
                  right && 'border-green-600 bg-green-50 dark:bg-green-950/40',
                  wrong && 'border-red-600 bg-red-50 dark:bg-red-950/40',
                )}
              >
                <span className="font-semibold">{letters[i]})</span>
                <span className="flex-1">{opt}</span>
                {right && <Check aria-label="Alternativa correta" className="size-5 text-green-700" />}
                {wrong && <X aria-label="Sua resposta, incorreta" className="size-5 text-red-700" />}
              </button>
            )
          })}
        </div>
        {reveal && (
          <div className="rounded-lg bg-muted p-3 text-sm" aria-live="polite">
            <p className="font-semibold">
              {q.answer === null ? 'Sem resposta. ' : q.is_correct ? 'Você acertou! ' : 'Resposta incorreta. '}
              Correta: {letters[q.correct ?? 0]}.
            </p>
            <p className="mt-1">{q.explanation}</p>
            {q.source && <p className="mt-1 text-muted-foreground">Fonte: {q.source}</p>}
          </div>
        )}
        {footer}
      </CardContent>
    </Card>
  )
}

/** /ferramentas/simulado-vet/resultado/<id>. */
export function SimuladoResult({ id }: { id: string }) {
  const attempt = useQuery({ queryKey: ['tools', TOOL, 'simulado', id], queryFn: () => toolFetch<Attempt>(TOOL, `simulados/${id}`), staleTime: 0 })
  if (attempt.isPending) return <Spinner />
  if (attempt.error) return <p role="alert">{attempt.error.message}</p>
  const a = attempt.data
  if (a.status !== 'submitted') {
    return (
      <p>
        Este simulado ainda está em andamento. <Link to={`${base}/quiz`}>Continuar</Link>
      </p>
    )
  }
  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>Resultado do simulado</CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          <p className="text-3xl font-bold" aria-label={`Você acertou ${a.score} de ${a.total} questões`}>
            {a.score}/{a.total} <span className="text-lg text-muted-foreground">({a.percent}%)</span>
          </p>
          {a.timed_out && <p>O tempo acabou e o simulado foi finalizado com as respostas salvas.</p>}
          <p>
            <Coins aria-hidden="true" className="mr-1 inline size-4" />
            {a.coins ? `${a.coins} VetCoins ${a.coins_credited ? 'creditados' : 'a creditar'}.` : 'Nenhum VetCoin neste simulado (sem acertos ou limite diário atingido).'}
          </p>
          <h2 className="font-semibold">Desempenho por área</h2>
          <ul className="flex flex-col gap-2" aria-label="Desempenho por área">
            {a.by_area?.map((s) => (
              <li key={s.area}>
                <div className="flex justify-between text-sm">
                  <span>{s.label}</span>
                  <span>
                    {s.correct}/{s.total} ({s.percent}%)
                  </span>
                </div>
                <div className="h-2 rounded bg-muted" aria-hidden="true">
                  <div className="h-2 rounded bg-primary" style={{ width: `${s.percent}%` }} />
                </div>
              </li>
            ))}
          </ul>
          <div className="flex flex-wrap gap-2">
            <Link to={base} className={buttonClasses('primary')}>
              Novo simulado
            </Link>
            <Link to={`${base}/history`} className={buttonClasses('outline')}>
              Histórico
            </Link>
          </div>
        </CardContent>
      </Card>
      <h2 className="text-lg font-semibold">Correção comentada</h2>
      {a.questions.map((q) => (
        <QuestionCard key={q.pos} q={q} total={a.size} locked />
      ))}
    </div>
  )
}

/** /ferramentas/simulado-vet/history: past simulados and each area's evolution. */
export function SimuladoHistory() {
  const history = useQuery({ queryKey: ['tools', TOOL, 'history'], queryFn: () => toolFetch<History>(TOOL, 'simulados'), staleTime: 0 })
  if (history.isPending) return <Spinner />
  if (history.error) return <p role="alert">{history.error.message}</p>
  const h = history.data
  const date = (s: string) => new Date(s).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' })
  return (
    <div className="flex flex-col gap-4">
      <h2 className="text-lg font-semibold">Histórico de simulados</h2>
      {h.attempts.length === 0 && <p className="text-muted-foreground">Você ainda não finalizou nenhum simulado.</p>}
      <ul className="flex flex-col gap-2" aria-label="Simulados finalizados">
        {h.attempts.map((a) => (
          <li key={a.id}>
            <Link to={`${base}/resultado/${a.id}`} className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-border bg-card p-4 hover:bg-muted">
              <span className="font-medium">
                {a.score}/{a.size} acertos ({a.percent}%)
              </span>
              <span className="text-sm text-muted-foreground">
                {date(a.submitted_at)} · {a.by_area.map((s) => s.label).join(', ')}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      {h.evolution.length > 0 && (
        <>
          <h2 className="text-lg font-semibold">Evolução por área</h2>
          <ul className="flex flex-col gap-3" aria-label="Evolução por área">
            {h.evolution.map((e) => (
              <li key={e.area}>
                <p className="font-medium">{e.label}</p>
                <ol className="flex flex-wrap gap-1.5" aria-label={`Evolução em ${e.label}`}>
                  {e.points.map((p, i) => (
                    <li key={p.attempt_id} className="rounded bg-muted px-2 py-1 text-sm">
                      {i + 1}º: {p.percent}%
                    </li>
                  ))}
                </ol>
              </li>
            ))}
          </ul>
        </>
      )}
      <Link to={base} className={buttonClasses('outline', 'md', 'self-start')}>
        Novo simulado
      </Link>
    </div>
  )
}
