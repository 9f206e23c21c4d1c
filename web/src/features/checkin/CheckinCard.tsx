import { useEffect, useState } from 'react'
import { CalendarCheck, Check, Clock, Flame, RotateCcw } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { toast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api'
import { cn } from '@/lib/cn'
import { useCheckIn, useCheckinState, useResetStreak } from './api'
import { fireConfetti } from './confetti'
import { formatCountdown, weekSlots } from './countdown'
import { playSound } from './sounds'

export const CHECKIN_ERROR = 'Erro ao realizar check-in. Tente novamente.'
export const BONUS_LABEL = 'Progresso para bônus semanal (+100 VetCoins)'

/** Re-renders every 60 s: the countdown to the next check-in shows minutes, not seconds. */
function useMinuteClock(): Date {
  const [now, setNow] = useState(() => new Date())
  useEffect(() => {
    const id = setInterval(() => setNow(new Date()), 60_000)
    return () => clearInterval(id)
  }, [])
  return now
}

/** Home card: week strip, check-in, countdown to local midnight, weekly bonus progress. */
export default function CheckinCard() {
  const state = useCheckinState()
  const checkIn = useCheckIn()
  const reset = useResetStreak()
  const now = useMinuteClock()
  const refetch = state.refetch

  // The instant (ms) the user's local day ends; a number keeps the effect's
  // dependency stable between renders.
  const midnight = state.data ? Date.parse(state.data.next_midnight) : null
  // A new local day starts: ask the server for the fresh state.
  useEffect(() => {
    if (midnight !== null && now.getTime() >= midnight) void refetch()
  }, [now, midnight, refetch])

  if (state.isPending) return <div aria-hidden="true" className="h-40 animate-pulse rounded-2xl bg-muted" />
  if (state.isError || !state.data) return null
  const s = state.data
  const slots = weekSlots(s.sequence_count, s.can_check_in)

  const doCheckIn = () => {
    if (checkIn.isPending || !s.can_check_in) return
    checkIn.mutate(undefined, {
      onSuccess: (result) => {
        if (result.completed_streak) {
          fireConfetti('celebration')
          playSound('celebration-fanfare')
          toast({ title: 'Bônus semanal conquistado!', description: `7 dias seguidos: +${result.bonus_points} VetCoins a caminho.`, variant: 'success' })
        } else {
          fireConfetti(result.sequence >= 5 ? 'stars' : 'basic')
          playSound('basic-success')
          toast({ title: 'Check-in realizado!', description: `+${result.points_awarded} VetCoins. Sequência: ${result.sequence} de 7.`, variant: 'success' })
        }
      },
      onError: (err) => {
        const already = err instanceof ApiError && err.status === 409
        toast({ title: 'Oops!', description: already ? err.message : CHECKIN_ERROR, variant: 'error' })
        if (already) void refetch()
      },
    })
  }

  return (
    <Card aria-labelledby="checkin-title">
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CalendarCheck aria-hidden="true" className="h-5 w-5 text-primary" />
          <CardTitle id="checkin-title" className="text-base">
            Check-in diário
          </CardTitle>
          {s.broken && <Badge className="bg-red-700 text-white">Sequência quebrada</Badge>}
        </div>
        <CardDescription>Faça check-in todos os dias e ganhe +5 VetCoins. Sete dias seguidos valem +100.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <ol aria-label="Semana de check-in" className="grid grid-cols-7 gap-1.5 sm:gap-2">
          {slots.map((slot) => (
            <li key={slot.day}>
              {slot.next ? (
                <button
                  type="button"
                  onClick={doCheckIn}
                  disabled={checkIn.isPending}
                  aria-label={`Fazer check-in do dia ${slot.day}`}
                  className="flex aspect-square w-full flex-col items-center justify-center rounded-xl border-2 border-dashed border-primary bg-primary/10 text-sm font-semibold text-primary transition hover:bg-primary/20"
                >
                  {slot.day}
                </button>
              ) : (
                <span
                  data-done={slot.done}
                  aria-label={slot.done ? `Dia ${slot.day}: feito` : `Dia ${slot.day}`}
                  className={cn(
                    'flex aspect-square w-full items-center justify-center rounded-xl border text-sm font-semibold',
                    slot.done ? 'border-primary bg-primary text-primary-foreground' : 'border-border bg-muted text-muted-foreground',
                  )}
                >
                  {slot.done ? <Check aria-hidden="true" className="h-4 w-4" /> : slot.day}
                </span>
              )}
            </li>
          ))}
        </ol>

        <div className="flex flex-col gap-1.5">
          <div className="flex items-center justify-between text-sm">
            <span>{BONUS_LABEL}</span>
            <span className="font-semibold" data-testid="checkin-sequence">
              {s.sequence_count}/7
            </span>
          </div>
          <div
            role="progressbar"
            aria-label={BONUS_LABEL}
            aria-valuemin={0}
            aria-valuemax={7}
            aria-valuenow={s.sequence_count}
            className="h-2 overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${(s.sequence_count / 7) * 100}%` }} />
          </div>
        </div>

        <div className="flex flex-wrap items-center gap-3">
          {s.can_check_in ? (
            <Button onClick={doCheckIn} loading={checkIn.isPending} disabled={checkIn.isPending}>
              <Flame aria-hidden="true" className="h-4 w-4" />
              Fazer check-in (+5 VetCoins)
            </Button>
          ) : (
            <p className="flex items-center gap-2 text-sm font-medium text-primary">
              <Check aria-hidden="true" className="h-4 w-4" />
              Check-in feito hoje!
            </p>
          )}
          {midnight !== null && !s.can_check_in && (
            <p className="flex items-center gap-1.5 text-sm text-muted-foreground" data-testid="checkin-countdown">
              <Clock aria-hidden="true" className="h-4 w-4" />
              Próximo check-in em {formatCountdown(new Date(midnight), now)}
            </p>
          )}
          {s.broken && (
            <Button variant="outline" size="sm" onClick={() => reset.mutate()} disabled={reset.isPending}>
              <RotateCcw aria-hidden="true" className="h-4 w-4" />
              Reiniciar sequência
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  )
}
