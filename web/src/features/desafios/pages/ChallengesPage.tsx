import { useState } from 'react'
import { Link } from 'react-router'
import { Award, Crown, Medal, Trophy } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { cn } from '@/lib/cn'
import { usePageTitle } from '@/lib/usePageTitle'
import { useBadges, useChallenges, useRanking, type Challenge, type ListPhase } from '../api'
import { DIFFICULTIES, KINDS, SPECIALTIES, difficultyLabel, formatMoment, progressLabel, progressShare, specialtyLabel } from '../format'

const TABS: { id: ListPhase; label: string; empty: string }[] = [
  { id: 'ativos', label: 'Ativos', empty: 'Nenhum desafio ativo no momento.' },
  { id: 'proximos', label: 'Próximos', empty: 'Nenhum desafio programado.' },
  { id: 'encerrados', label: 'Encerrados', empty: 'Nenhum desafio encerrado.' },
]

/**
 * /desafios: active, upcoming and finished challenges with the member's
 * progress, filters by specialty and difficulty, the week's ranking (geral
 * or conexões) and the streak badges.
 */
export default function ChallengesPage() {
  usePageTitle('Desafios')
  const [fase, setFase] = useState<ListPhase>('ativos')
  const [especialidade, setEspecialidade] = useState('')
  const [dificuldade, setDificuldade] = useState('')
  const list = useChallenges({ fase, especialidade, dificuldade })
  const tab = TABS.find((t) => t.id === fase)!
  return (
    <div className="flex min-w-0 flex-col gap-5">
      <header className="flex flex-col gap-1">
        <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight">
          <Trophy aria-hidden="true" className="size-7 text-primary" /> Desafios
        </h1>
        <p className="text-muted-foreground">Casos clínicos, quizzes e sequências de estudo com prazo: participe, aprenda e ganhe VetCoins.</p>
      </header>
      <div className="grid min-w-0 gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="flex min-w-0 flex-col gap-4">
          <div role="tablist" aria-label="Período" className="flex flex-wrap gap-2">
            {TABS.map((t) => (
              <button
                key={t.id}
                role="tab"
                type="button"
                aria-selected={fase === t.id}
                onClick={() => setFase(t.id)}
                className={cn(
                  'rounded-full px-4 py-1.5 text-sm font-medium',
                  fase === t.id ? 'bg-primary text-primary-foreground' : 'bg-muted text-foreground hover:bg-accent',
                )}
              >
                {t.label}
              </button>
            ))}
          </div>
          <div className="flex flex-wrap gap-3">
            <label className="flex min-w-0 flex-col gap-1 text-sm font-medium">
              Especialidade
              <select value={especialidade} onChange={(e) => setEspecialidade(e.target.value)} className="h-10 rounded-lg border border-border bg-card px-3">
                <option value="">Todas as especialidades</option>
                {SPECIALTIES.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex min-w-0 flex-col gap-1 text-sm font-medium">
              Dificuldade
              <select value={dificuldade} onChange={(e) => setDificuldade(e.target.value)} className="h-10 rounded-lg border border-border bg-card px-3">
                <option value="">Todas as dificuldades</option>
                {DIFFICULTIES.map((s) => (
                  <option key={s.value} value={s.value}>
                    {s.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <section role="tabpanel" aria-label={`Desafios ${tab.label.toLowerCase()}`}>
            {list.isPending && <Spinner />}
            {list.isError && (
              <div role="alert" className="flex flex-col items-start gap-2">
                <p>Erro ao carregar desafios.</p>
                <Button size="sm" variant="outline" onClick={() => list.refetch()}>
                  Tentar novamente
                </Button>
              </div>
            )}
            {list.data && list.data.length === 0 && <p className="text-muted-foreground">{tab.empty}</p>}
            {list.data && list.data.length > 0 && (
              <ul className="grid gap-4 md:grid-cols-2 [&>li]:min-w-0">
                {list.data.map((c) => (
                  <li key={c.id}>
                    <ChallengeCard challenge={c} />
                  </li>
                ))}
              </ul>
            )}
          </section>
        </div>
        <aside className="flex min-w-0 flex-col gap-6">
          <RankingPanel />
          <BadgesPanel />
        </aside>
      </div>
    </div>
  )
}

function ChallengeCard({ challenge: c }: { challenge: Challenge }) {
  const share = progressShare(c)
  return (
    <Card className="flex h-full flex-col gap-3 p-4">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant="secondary">{KINDS[c.kind] ?? c.kind}</Badge>
        <Badge variant="outline">{difficultyLabel(c.difficulty)}</Badge>
        {c.premium_only && (
          <Badge variant="warning">
            <Crown aria-hidden="true" className="mr-1 inline size-3" />
            Premium
          </Badge>
        )}
      </div>
      <h2 className="text-lg font-semibold leading-snug">
        <Link to={`/desafios/${c.slug}`} className="hover:underline">
          {c.title}
        </Link>
      </h2>
      {c.summary && <p className="text-sm text-muted-foreground">{c.summary}</p>}
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <div>
          <dt className="text-muted-foreground">Especialidade</dt>
          <dd>{specialtyLabel(c.specialty)}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">VetCoins</dt>
          <dd className="font-semibold">{c.points}</dd>
        </div>
        <div className="col-span-2">
          <dt className="text-muted-foreground">{c.phase === 'upcoming' ? 'Começa em' : c.phase === 'active' ? 'Termina em' : 'Encerrado em'}</dt>
          <dd>{formatMoment(c.phase === 'upcoming' ? c.starts_at : c.ends_at)}</dd>
        </div>
      </dl>
      {c.phase !== 'upcoming' && (
        <div className="mt-auto flex flex-col gap-1">
          <div
            role="progressbar"
            aria-label={`Progresso em ${c.title}`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={share}
            className="h-2 overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full bg-primary" style={{ width: `${share}%` }} />
          </div>
          <p className="text-xs text-muted-foreground">{progressLabel(c)}</p>
        </div>
      )}
    </Card>
  )
}

function RankingPanel() {
  const [scope, setScope] = useState<'geral' | 'conexoes'>('geral')
  const ranking = useRanking(scope)
  return (
    <section aria-labelledby="ranking-title" className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-4">
      <h2 id="ranking-title" className="flex items-center gap-2 text-lg font-semibold">
        <Medal aria-hidden="true" className="size-5 text-amber-600" /> Ranking da semana
      </h2>
      <div role="tablist" aria-label="Ranking" className="flex gap-2">
        {(
          [
            ['geral', 'Geral'],
            ['conexoes', 'Conexões'],
          ] as const
        ).map(([id, label]) => (
          <button
            key={id}
            role="tab"
            type="button"
            aria-selected={scope === id}
            onClick={() => setScope(id)}
            className={cn('rounded-full px-3 py-1 text-sm', scope === id ? 'bg-primary text-primary-foreground' : 'bg-muted hover:bg-accent')}
          >
            {label}
          </button>
        ))}
      </div>
      {ranking.isPending && <Spinner />}
      {ranking.isError && <p className="text-sm text-destructive">Erro ao carregar o ranking.</p>}
      {ranking.data && ranking.data.entries.length === 0 && <p className="text-sm text-muted-foreground">Ninguém pontuou em desafios nesta semana ainda.</p>}
      {ranking.data && ranking.data.entries.length > 0 && (
        <ol aria-label={scope === 'geral' ? 'Ranking geral' : 'Ranking entre conexões'} className="flex flex-col gap-1">
          {ranking.data.entries.map((e) => (
            <li key={e.user_id} className={cn('flex items-center justify-between gap-2 rounded-lg px-2 py-1 text-sm', e.is_me && 'bg-accent font-semibold')}>
              <span className="min-w-0 truncate">
                {e.position}º {e.name}
                {e.is_me ? ' (você)' : ''}
              </span>
              <span className="shrink-0">{e.points} VetCoins</span>
            </li>
          ))}
        </ol>
      )}
      {ranking.data?.me && !ranking.data.entries.some((e) => e.is_me) && (
        <p className="text-sm">
          Sua posição: {ranking.data.me.position}º com {ranking.data.me.points} VetCoins
        </p>
      )}
    </section>
  )
}

function BadgesPanel() {
  const badges = useBadges()
  return (
    <section aria-labelledby="badges-title" className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-4">
      <h2 id="badges-title" className="flex items-center gap-2 text-lg font-semibold">
        <Award aria-hidden="true" className="size-5 text-primary" /> Medalhas
      </h2>
      {badges.isPending && <Spinner />}
      {badges.isError && <p className="text-sm text-destructive">Erro ao carregar as medalhas.</p>}
      {badges.data && (
        <>
          <p className="text-sm">
            Sequência atual: {badges.data.streak} {badges.data.streak === 1 ? 'semana' : 'semanas'} · {badges.data.completed} concluídos
          </p>
          <ul className="grid grid-cols-2 gap-2">
            {badges.data.badges.map((b) => (
              <li
                key={b.id}
                className={cn('rounded-xl border p-2 text-sm', b.earned ? 'border-amber-400 bg-amber-50 text-amber-950 dark:bg-amber-950 dark:text-amber-50' : 'border-border opacity-70')}
              >
                <p className="font-semibold">
                  {b.name}
                  <span className="sr-only">{b.earned ? ' (conquistada)' : ' (ainda não conquistada)'}</span>
                </p>
                <p className="text-xs">{b.description}</p>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
