import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ArrowRight, Coins } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { toolFetch } from '@/features/ferramentas'
import { TOOL, getOverview, overviewKey, type Attempt } from './api'
import { QuestionCard } from './Simulado'

/** /ferramentas/quiz-area: 10-question rounds in one area, corrected at each answer. */
export function QuizArea() {
  const qc = useQueryClient()
  const overview = useQuery({ queryKey: overviewKey, queryFn: getOverview, staleTime: 0 })
  const [area, setArea] = useState('')
  const [round, setRound] = useState<Attempt | null>(null)
  const [current, setCurrent] = useState(0)
  const start = useMutation({
    mutationFn: () => toolFetch<Attempt>(TOOL, 'quiz', { method: 'POST', body: { area } }),
    onSuccess: (r) => {
      setRound(r)
      setCurrent(0)
    },
  })
  const answer = useMutation({
    mutationFn: (v: { pos: number; answer: number }) =>
      toolFetch<Attempt>(TOOL, `quiz/${round?.id}/answers/${v.pos}`, { method: 'POST', body: { answer: v.answer } }),
    onSuccess: (r) => {
      setRound(r)
      if (r.status === 'submitted') void qc.invalidateQueries({ queryKey: overviewKey })
    },
  })
  if (overview.isPending) return <Spinner />
  if (overview.error) return <p role="alert">{overview.error.message}</p>
  const o = overview.data

  if (!round) {
    return (
      <form
        aria-label="Nova rodada"
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault()
          start.mutate()
        }}
      >
        <label className="flex flex-col gap-1">
          <span className="font-semibold">Área</span>
          <select className="h-11 rounded-lg border border-border bg-card px-3" value={area} onChange={(e) => setArea(e.target.value)} required>
            <option value="">Escolha uma área</option>
            {o.areas.map((a) => (
              <option key={a.value} value={a.value}>
                {a.label}
              </option>
            ))}
          </select>
        </label>
        <p className="text-sm text-muted-foreground">
          {o.quiz_size} questões, sem cronômetro: a correção aparece logo após cada resposta.
        </p>
        <p className="text-sm text-muted-foreground">
          <Coins aria-hidden="true" className="mr-1 inline size-4" />
          {o.rule}
        </p>
        {start.error && <p role="alert" className="text-destructive">{start.error.message}</p>}
        <Button type="submit" className="self-start" disabled={!area} loading={start.isPending}>
          Começar rodada
        </Button>
      </form>
    )
  }

  const q = round.questions[current]
  const done = round.status === 'submitted'
  if (!q) return null
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm" aria-live="polite">
        {round.areas.map((a) => a.label).join(', ')} · {round.questions.filter((x) => x.is_correct).length} acertos em{' '}
        {round.questions.filter((x) => x.answer !== null).length} respondidas
      </p>
      <QuestionCard q={q} total={round.size} onChoose={(a) => answer.mutate({ pos: q.pos, answer: a })} locked={answer.isPending} />
      {answer.error && <p role="alert" className="text-destructive">{answer.error.message}</p>}
      {q.answer !== null && current < round.size - 1 && (
        <Button className="self-end" onClick={() => setCurrent(current + 1)}>
          Próxima questão <ArrowRight aria-hidden="true" className="size-4" />
        </Button>
      )}
      {done && (
        <Card>
          <CardHeader>
            <CardTitle>Rodada concluída</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col items-start gap-3">
            <p className="text-2xl font-bold">
              {round.score}/{round.total} acertos
            </p>
            <p>
              <Coins aria-hidden="true" className="mr-1 inline size-4" />
              {round.coins ? `${round.coins} VetCoins ${round.coins_credited ? 'creditados' : 'a creditar'}.` : 'Nenhum VetCoin nesta rodada.'}
            </p>
            <Button onClick={() => setRound(null)}>Nova rodada</Button>
          </CardContent>
        </Card>
      )}
    </div>
  )
}
