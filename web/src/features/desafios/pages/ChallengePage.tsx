import { useEffect, useRef, useState } from 'react'
import { Link, useParams } from 'react-router'
import Markdown from 'react-markdown'
import { ArrowLeft, CheckCircle2, Crown, XCircle } from 'lucide-react'
import { PremiumInvite } from '@/components/PremiumInvite'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api'
import { cn } from '@/lib/cn'
import { usePageTitle } from '@/lib/usePageTitle'
import { useChallenge, useJoinChallenge, useSaveAnswers, useSubmitAnswers, type Challenge, type Question } from '../api'
import { COMMUNITY, KINDS, LETTERS, difficultyLabel, formatMoment, isMeasured, lessons, specialtyLabel, units } from '../format'

const PREMIUM_TEXT = 'Este desafio é exclusivo para assinantes Premium.'

function isPlanRefusal(e: unknown): e is ApiError {
  return e instanceof ApiError && (e.fields?.access === 'trial_limit' || e.fields?.access === 'premium_required')
}

/** /desafios/:slug: the case, the questions (saved as the member goes), the one submission, the result and the discussion. */
export default function ChallengePage() {
  const { slug = '' } = useParams()
  const challenge = useChallenge(slug)
  usePageTitle(challenge.data?.title ?? 'Desafio')
  if (challenge.isPending) return <Spinner />
  if (challenge.isError) {
    return (
      <div role="alert" className="flex flex-col items-start gap-3">
        <p>{challenge.error instanceof ApiError ? challenge.error.message : 'Erro ao carregar o desafio.'}</p>
        <Link to="/desafios" className="text-primary underline">
          Voltar para Desafios
        </Link>
      </div>
    )
  }
  return <ChallengeView key={challenge.data.id} c={challenge.data} />
}

function ChallengeView({ c }: { c: Challenge }) {
  const save = useSaveAnswers(c.slug)
  const submit = useSubmitAnswers(c.slug)
  const [answers, setAnswers] = useState<Record<string, string>>(c.me?.answers ?? {})
  const [status, setStatus] = useState('')
  const join = useJoinChallenge(c.slug)
  const refusal = [save.error, submit.error, join.error].find(isPlanRefusal)
  const measured = isMeasured(c.kind)
  const editable = c.phase === 'active' && (!c.me || c.me.status === 'in_progress') && !c.access
  const resultRef = useRef<HTMLHeadingElement>(null)
  // A page first drawn from a remembered answer gets the saved answers when
  // the fresh one arrives; choices made here meanwhile win.
  const saved = c.me?.answers
  useEffect(() => {
    if (saved) setAnswers((a) => ({ ...saved, ...a }))
  }, [saved])

  useEffect(() => {
    if (c.me?.status === 'submitted' && submit.isSuccess) resultRef.current?.focus()
  }, [c.me?.status, submit.isSuccess])

  const choose = (q: Question, letter: string) => {
    const key = String(q.number)
    setAnswers((a) => ({ ...a, [key]: letter }))
    setStatus('Salvando…')
    save.mutate(
      { [key]: letter },
      {
        onSuccess: () => setStatus('Resposta salva'),
        onError: (e) => setStatus(e instanceof ApiError ? e.message : 'Não foi possível salvar. Tente novamente.'),
      },
    )
  }
  const questions = c.questions ?? []
  const allAnswered = questions.length > 0 && questions.every((q) => answers[String(q.number)])

  return (
    <article className="flex min-w-0 flex-col gap-5">
      <Link to="/desafios" className="flex items-center gap-1 text-sm text-primary hover:underline">
        <ArrowLeft aria-hidden="true" className="size-4" /> Desafios
      </Link>
      <header className="flex flex-col gap-2">
        <div className="flex flex-wrap gap-2">
          <Badge variant="secondary">{KINDS[c.kind] ?? c.kind}</Badge>
          <Badge variant="outline">{specialtyLabel(c.specialty)}</Badge>
          <Badge variant="outline">{difficultyLabel(c.difficulty)}</Badge>
          {c.premium_only && (
            <Badge variant="warning">
              <Crown aria-hidden="true" className="mr-1 inline size-3" />
              Premium
            </Badge>
          )}
        </div>
        <h1 className="text-2xl font-bold tracking-tight">{c.title}</h1>
        <p className="text-sm text-muted-foreground">
          {c.points} VetCoins · {c.phase === 'upcoming' ? `começa em ${formatMoment(c.starts_at)}` : c.phase === 'active' ? `termina em ${formatMoment(c.ends_at)}` : `encerrado em ${formatMoment(c.ends_at)}`}
        </p>
      </header>
      <div className="prose max-w-none dark:prose-invert">
        <Markdown skipHtml>{c.description}</Markdown>
      </div>
      {c.access === 'premium_required' && <PremiumInvite message={PREMIUM_TEXT} />}
      {c.phase === 'upcoming' && !c.access && (
        <p className="rounded-xl bg-muted p-4">
          {measured ? `${goalSentence(c)} Você poderá participar quando o desafio começar.` : 'O caso e as perguntas aparecem quando o desafio começar.'}
        </p>
      )}
      {(c.history || c.exam_findings) && (
        <section aria-labelledby="case-title" className="flex flex-col gap-3">
          <h2 id="case-title" className="text-xl font-semibold">
            O caso
          </h2>
          {c.history && (
            <div>
              <h3 className="font-semibold">Histórico e anamnese</h3>
              <div className="prose max-w-none dark:prose-invert">
                <Markdown skipHtml>{c.history}</Markdown>
              </div>
            </div>
          )}
          {c.exam_findings && (
            <div>
              <h3 className="font-semibold">Achados de exame</h3>
              <div className="prose max-w-none dark:prose-invert">
                <Markdown skipHtml>{c.exam_findings}</Markdown>
              </div>
            </div>
          )}
          {c.images && c.images.length > 0 && (
            <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              {c.images.map((key, i) => (
                <li key={key}>
                  <img src={`/uploads/${key}`} alt={`Imagem ${i + 1} do caso`} loading="lazy" className="w-full rounded-xl border border-border" />
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      {refusal && <PremiumInvite title="Limite do teste gratuito" message={refusal.message} />}
      {measured && c.phase !== 'upcoming' && !c.access && c.me?.status !== 'submitted' && (
        <GoalPanel
          c={c}
          onJoin={() => join.mutate()}
          joining={join.isPending}
          error={[join.error, submit.error].find((e) => e && !isPlanRefusal(e)) ?? null}
          onComplete={() => submit.mutate({})}
          completing={submit.isPending}
        />
      )}
      {c.me?.status === 'submitted' && (
        <Card className="flex flex-col gap-1 border-green-600 p-4">
          <h2 ref={resultRef} tabIndex={-1} className="text-lg font-semibold">
            {measured ? `Desafio concluído: ${units(c.kind, c.me.correct)}` : `Resultado: ${c.me.correct} de ${c.me.total} certas`}
          </h2>
          <p>Você ganhou {c.me.points_awarded} VetCoins neste desafio.</p>
        </Card>
      )}
      {c.me?.status === 'closed' && (
        <p className="rounded-xl bg-muted p-4">{measured ? 'O desafio encerrou antes de você atingir a meta.' : 'O desafio encerrou antes do envio das suas respostas.'}</p>
      )}
      {questions.length > 0 && (
        <section aria-labelledby="questions-title" className="flex flex-col gap-4">
          <h2 id="questions-title" className="text-xl font-semibold">
            Perguntas
          </h2>
          {questions.map((q) => (
            <QuestionBlock key={q.number} q={q} chosen={answers[String(q.number)] ?? ''} editable={editable} unlocked={c.unlocked} onChoose={choose} />
          ))}
          {editable && (
            <div className="flex flex-col items-start gap-2">
              <p role="status" aria-live="polite" className="text-sm text-muted-foreground">
                {status}
              </p>
              <Button
                disabled={!allAnswered || submit.isPending}
                onClick={() => submit.mutate(answers)}
                aria-describedby={allAnswered ? undefined : 'submit-hint'}
              >
                {submit.isPending ? 'Enviando…' : 'Enviar respostas'}
              </Button>
              {!allAnswered && (
                <p id="submit-hint" className="text-sm text-muted-foreground">
                  Responda todas as perguntas para enviar. As respostas só podem ser enviadas uma vez.
                </p>
              )}
              {submit.error && !isPlanRefusal(submit.error) && (
                <p role="alert" className="text-sm text-destructive">
                  {submit.error instanceof ApiError ? submit.error.message : 'Não foi possível enviar. Tente novamente.'}
                </p>
              )}
            </div>
          )}
        </section>
      )}
      {c.unlocked && c.explanation && (
        <section aria-labelledby="discussion-title" className="flex flex-col gap-2">
          <h2 id="discussion-title" className="text-xl font-semibold">
            Discussão do caso
          </h2>
          <div className="prose max-w-none dark:prose-invert">
            <Markdown skipHtml>{c.explanation}</Markdown>
          </div>
        </section>
      )}
    </article>
  )
}

/** A measured challenge (study streak, community): join, what the member did since the start against the goal, and the completion. */
function GoalPanel({
  c,
  onJoin,
  joining,
  error,
  onComplete,
  completing,
}: {
  c: Challenge
  onJoin: () => void
  joining: boolean
  error: unknown
  onComplete: () => void
  completing: boolean
}) {
  const goal = c.goal ?? 0
  const done = c.done ?? 0
  const community = c.kind === COMMUNITY
  const reached = done >= goal && goal > 0
  const open = c.phase === 'active' && (!c.me || c.me.status === 'in_progress')
  return (
    <section aria-labelledby="goal-title" className="flex flex-col gap-3 rounded-2xl border border-border p-4">
      <h2 id="goal-title" className="text-xl font-semibold">
        Sua meta
      </h2>
      <p>
        {goalSentence(c)} Contam {community ? 'as respostas aceitas' : 'as aulas concluídas'} desde o início do desafio, em {formatMoment(c.starts_at)}.
      </p>
      {!c.me ? (
        open && (
          <div className="flex flex-col items-start gap-2">
            <Button onClick={onJoin} disabled={joining}>
              {joining ? 'Entrando…' : 'Participar'}
            </Button>
          </div>
        )
      ) : (
        <>
          <div
            role="progressbar"
            aria-label={community ? 'Respostas aceitas' : 'Aulas concluídas'}
            aria-valuemin={0}
            aria-valuemax={goal}
            aria-valuenow={Math.min(done, goal)}
            aria-valuetext={`${done} de ${units(c.kind, goal)}`}
            className="h-3 overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full bg-primary" style={{ width: `${goal ? Math.min(100, (done / goal) * 100) : 0}%` }} />
          </div>
          <p className="text-sm">
            {done} de {units(c.kind, goal)}.
          </p>
          {open && (
            <div className="flex flex-col items-start gap-2">
              <div className="flex flex-wrap gap-2">
                <Button onClick={onComplete} disabled={!reached || completing} aria-describedby={reached ? undefined : 'goal-hint'}>
                  {completing ? 'Concluindo…' : 'Concluir desafio'}
                </Button>
                <Link
                  to={community ? '/community' : '/cursos'}
                  className="inline-flex h-10 items-center rounded-lg border border-border px-4 text-sm font-medium hover:bg-muted"
                >
                  {community ? 'Ir para a Comunidade' : 'Ir para Cursos'}
                </Link>
              </div>
              {!reached && (
                <p id="goal-hint" className="text-sm text-muted-foreground">
                  {goal - done === 1 ? 'Falta' : 'Faltam'} {units(c.kind, goal - done)}. Quem atinge a meta até o encerramento recebe os VetCoins mesmo sem clicar em concluir.
                </p>
              )}
            </div>
          )}
        </>
      )}
      {error != null && (
        <p role="alert" className="text-sm text-destructive">
          {error instanceof ApiError ? error.message : 'Não foi possível concluir a ação. Tente novamente.'}
        </p>
      )}
    </section>
  )
}

/** What a measured challenge asks, until its end. */
function goalSentence(c: Challenge): string {
  const goal = c.goal ?? 0
  return c.kind === COMMUNITY
    ? `Ajude colegas na comunidade: tenha ${units(c.kind, goal)} até ${formatMoment(c.ends_at)} (o autor da publicação marca o seu comentário como a resposta).`
    : `Conclua ${lessons(goal)} de cursos até ${formatMoment(c.ends_at)}.`
}

function QuestionBlock({
  q,
  chosen,
  editable,
  unlocked,
  onChoose,
}: {
  q: Question
  chosen: string
  editable: boolean
  unlocked: boolean
  onChoose: (q: Question, letter: string) => void
}) {
  return (
    <fieldset className="flex flex-col gap-2 rounded-2xl border border-border p-4">
      <legend className="px-1 font-semibold">Pergunta {q.number}</legend>
      <div className="prose max-w-none dark:prose-invert">
        <Markdown skipHtml>{q.text}</Markdown>
      </div>
      {q.options.map((o, i) => {
        const letter = LETTERS[i] ?? String(i + 1)
        const right = unlocked && q.correct === letter
        const wrong = unlocked && chosen === letter && q.correct !== letter
        return (
          <label
            key={letter}
            className={cn(
              'flex cursor-pointer items-start gap-2 rounded-xl border p-3',
              right ? 'border-green-600 bg-green-50 dark:bg-green-950' : wrong ? 'border-destructive' : 'border-border',
              !editable && 'cursor-default',
            )}
          >
            <input
              type="radio"
              name={`q${q.number}`}
              value={letter}
              checked={chosen === letter}
              disabled={!editable}
              onChange={() => onChoose(q, letter)}
              className="mt-1"
            />
            <span className="min-w-0 flex-1">
              {letter}) {o}
            </span>
            {right && <CheckCircle2 aria-label="Resposta esperada" className="size-5 shrink-0 text-green-700" />}
            {wrong && <XCircle aria-label="Sua resposta, incorreta" className="size-5 shrink-0 text-destructive" />}
          </label>
        )
      })}
      {unlocked && q.explanation && (
        <div className="rounded-xl bg-muted p-3 text-sm">
          <p className="font-semibold">Explicação</p>
          <Markdown skipHtml>{q.explanation}</Markdown>
        </div>
      )}
    </fieldset>
  )
}
