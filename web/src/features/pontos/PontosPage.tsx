import { Coins } from 'lucide-react'
import { usePageTitle } from '@/lib/usePageTitle'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { MyRedemptions, RewardsShop } from './RewardsShop'
import { useState } from 'react'
import { KIND_LABELS, useHistory, usePointsBalance, type HistoryFilters, type PointsBalance } from './api'

const numberFormat = new Intl.NumberFormat('pt-BR')
const dateFormat = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' })

const BREAKDOWN: { key: keyof PointsBalance; label: string; negative?: boolean }[] = [
  { key: 'challenge_points', label: 'Desafios' },
  { key: 'course_points', label: 'Cursos' },
  { key: 'post_points', label: 'Posts' },
  { key: 'checkin_points', label: 'Check-in' },
  { key: 'other_points', label: 'Outros' },
  { key: 'points_spent', label: 'Gastos', negative: true },
]

const HISTORY_KINDS: [NonNullable<HistoryFilters['kind']>, string][] = [
  ['desafios', 'Desafios'],
  ['cursos', 'Cursos'],
  ['posts', 'Posts'],
  ['checkin', 'Check-in'],
  ['outros', 'Outros'],
  ['gastos', 'Gastos'],
]

/** /pontos: VetCoins balance, its breakdown by kind and the paged history. */
export default function PontosPage() {
  usePageTitle('VetCoins')
  const balance = usePointsBalance()
  const [filters, setFilters] = useState<HistoryFilters>({})
  const history = useHistory(filters)
  const entries = history.data?.pages.flatMap((p) => p.entries) ?? []

  return (
    <div className="flex flex-col gap-6">
      <header className="flex items-center gap-3">
        <Coins aria-hidden="true" className="h-7 w-7 text-amber-600" />
        <h1 className="text-2xl font-bold tracking-tight">VetCoins</h1>
      </header>

      <Card>
        <CardHeader>
          <CardDescription>Saldo atual</CardDescription>
          <p className="text-4xl font-bold" data-testid="pontos-total">
            {balance.data ? numberFormat.format(balance.data.total_points) : '…'}
          </p>
        </CardHeader>
        <CardContent>
          {balance.isError && <p className="text-sm text-destructive">Erro ao carregar VetCoins.</p>}
          {balance.data && (
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              {BREAKDOWN.map(({ key, label, negative }) => (
                <div key={key} className="rounded-xl bg-muted p-3" role="group" aria-label={label}>
                  <dt className="text-xs text-muted-foreground">{label}</dt>
                  <dd className="text-lg font-semibold" data-testid={`pontos-${key}`}>
                    {negative && balance.data[key] > 0 ? '−' : ''}
                    {numberFormat.format(balance.data[key])}
                  </dd>
                </div>
              ))}
            </dl>
          )}
        </CardContent>
      </Card>

      <RewardsShop />

      <MyRedemptions />

      <Card>
        <CardHeader>
          <CardTitle className="text-base">Histórico</CardTitle>
        </CardHeader>
        <CardContent>
          <div className="mb-3 flex flex-wrap gap-3">
            <label className="flex flex-col gap-1 text-sm">
              Tipo
              <select
                className="h-10 rounded-lg border border-border bg-card px-3"
                value={filters.kind ?? ''}
                onChange={(e) => setFilters((f) => ({ ...f, kind: (e.target.value || undefined) as HistoryFilters['kind'] }))}
              >
                <option value="">Todos</option>
                {HISTORY_KINDS.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
            </label>
            <label className="flex flex-col gap-1 text-sm">
              Período
              <select
                className="h-10 rounded-lg border border-border bg-card px-3"
                value={filters.period ?? ''}
                onChange={(e) => setFilters((f) => ({ ...f, period: (e.target.value || undefined) as HistoryFilters['period'] }))}
              >
                <option value="">Todo o período</option>
                <option value="7d">Últimos 7 dias</option>
                <option value="30d">Últimos 30 dias</option>
                <option value="90d">Últimos 90 dias</option>
                <option value="365d">Últimos 12 meses</option>
              </select>
            </label>
          </div>
          {history.isPending && <Spinner />}
          {history.isError && <p className="text-sm text-destructive">Erro ao carregar o histórico.</p>}
          {history.isSuccess && entries.length === 0 && (
            <p className="text-sm text-muted-foreground">{filters.kind || filters.period ? 'Nenhuma movimentação com estes filtros.' : 'Nenhuma movimentação ainda. Faça seu check-in diário para ganhar VetCoins!'}</p>
          )}
          <ul className="divide-y divide-border" aria-label="Histórico de VetCoins">
            {entries.map((e) => (
              <li key={e.id} className="flex items-center justify-between gap-3 py-3">
                <div className="flex flex-col">
                  <span className="font-medium">{KIND_LABELS[e.kind] ?? e.kind}</span>
                  <span className="text-xs text-muted-foreground">{dateFormat.format(new Date(e.created_at))}</span>
                </div>
                <span className={e.amount < 0 ? 'font-semibold text-destructive' : 'font-semibold text-green-700 dark:text-green-400'}>
                  {e.amount > 0 ? '+' : '−'}
                  {numberFormat.format(Math.abs(e.amount))}
                </span>
              </li>
            ))}
          </ul>
          {history.hasNextPage && (
            <Button variant="outline" className="mt-3" onClick={() => void history.fetchNextPage()} loading={history.isFetchingNextPage}>
              Carregar mais
            </Button>
          )}
        </CardContent>
      </Card>
    </div>
  )
}
