import { useEffect, useState } from 'react'
import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { toast } from '@/components/ui/toast'
import { usePreferences, useUpdatePreferences, type NotificationPreferences } from '../api'
import { BLOCKED_STEPS, PUSH_MESSAGES, PushError } from '../push/messages'
import { pushStatus, subscribePush, unsubscribePush, usePushState, type PushStatus } from '../push/pushState'
import { Switch } from './Switch'

type TypeKey = Exclude<keyof NotificationPreferences, 'push_enabled' | 'quiet_hours_start' | 'quiet_hours_end' | 'time_zone'>

export const TYPE_SWITCHES: readonly { key: TypeKey; label: string; description: string }[] = [
  { key: 'connections_enabled', label: 'Conexões', description: 'Pedidos de conexão e conexões aceitas' },
  { key: 'comments_enabled', label: 'Comentários', description: 'Comentários e respostas nas suas publicações' },
  { key: 'likes_enabled', label: 'Curtidas', description: 'Curtidas nas suas publicações e comentários' },
  { key: 'challenges_enabled', label: 'Desafios', description: 'Novos desafios e resultados' },
  { key: 'courses_enabled', label: 'Cursos', description: 'Novas aulas e certificados' },
  { key: 'community_enabled', label: 'Comunidade', description: 'Novidades da comunidade e eventos' },
  { key: 'marketing_enabled', label: 'Novidades e ofertas', description: 'Promoções e novidades do VetClube' },
]

export const PUSH_STATUS_LABELS: Record<PushStatus, string> = {
  active: 'Ativas neste dispositivo',
  inactive: 'Ainda não ativadas neste dispositivo',
  blocked: 'Bloqueadas pelo navegador',
  unsupported: 'Não suportadas',
}

/** The blocked-permission help: the message and the steps to allow again. */
export function BlockedHelp() {
  return (
    <div role="note" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
      <p className="font-medium">{PUSH_MESSAGES.blocked}</p>
      <ol className="mt-1 list-decimal pl-5">
        {BLOCKED_STEPS.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </div>
  )
}

/** This device's subscription: on, off, blocked or unsupported, with the button that changes it. */
export function DevicePushControl() {
  const push = usePushState()
  const status = pushStatus(push)
  const [busy, setBusy] = useState(false)
  const run = async (action: () => Promise<unknown>, success: string) => {
    setBusy(true)
    try {
      await action()
      toast.success(success)
    } catch (err) {
      toast.error(err instanceof PushError ? err.message : PUSH_MESSAGES.enableFailed)
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm">
        <span className="font-medium">Este dispositivo: </span>
        <span data-testid="push-status">{PUSH_STATUS_LABELS[status]}</span>
      </p>
      {status === 'unsupported' && <p className="text-sm text-muted-foreground">{PUSH_MESSAGES.unsupported}</p>}
      {status === 'blocked' && <BlockedHelp />}
      {status === 'inactive' && (
        <Button size="sm" loading={busy} onClick={() => void run(subscribePush, PUSH_MESSAGES.enabled)}>
          {busy ? 'Ativando...' : 'Ativar notificações push'}
        </Button>
      )}
      {status === 'active' && (
        <Button size="sm" variant="outline" loading={busy} onClick={() => void run(unsubscribePush, PUSH_MESSAGES.disabled)}>
          Desativar neste dispositivo
        </Button>
      )}
    </div>
  )
}

/** Quiet hours when none are chosen, or when they are turned on again. */
export const DEFAULT_QUIET_HOURS = { start: '22:00', end: '07:00' } as const
/** Equal start and end mean no quiet hours (the server's rule). */
const NO_QUIET_HOURS = '00:00'

function QuietHours({ prefs, save }: { prefs: NotificationPreferences; save: (next: NotificationPreferences) => void }) {
  const enabled = prefs.quiet_hours_start !== prefs.quiet_hours_end
  const [start, setStart] = useState(prefs.quiet_hours_start)
  const [end, setEnd] = useState(prefs.quiet_hours_end)
  // A rollback or another tab's change moves the inputs too.
  useEffect(() => setStart(prefs.quiet_hours_start), [prefs.quiet_hours_start])
  useEffect(() => setEnd(prefs.quiet_hours_end), [prefs.quiet_hours_end])
  const commit = () => {
    if (!/^\d{2}:\d{2}$/.test(start) || !/^\d{2}:\d{2}$/.test(end)) return
    if (start === prefs.quiet_hours_start && end === prefs.quiet_hours_end) return
    save({ ...prefs, quiet_hours_start: start, quiet_hours_end: end })
  }
  const toggle = (on: boolean) =>
    save(
      on
        ? { ...prefs, quiet_hours_start: DEFAULT_QUIET_HOURS.start, quiet_hours_end: DEFAULT_QUIET_HOURS.end }
        : { ...prefs, quiet_hours_start: NO_QUIET_HOURS, quiet_hours_end: NO_QUIET_HOURS },
    )
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-semibold">Horário silencioso</legend>
      <Switch
        label="Ativar horário silencioso"
        description={
          enabled
            ? `Nesse horário as notificações push esperam até o fim do período; as do app continuam chegando.${prefs.time_zone ? ` Fuso: ${prefs.time_zone}.` : ''}`
            : 'Desativado: as notificações push chegam a qualquer hora.'
        }
        checked={enabled}
        onChange={toggle}
      />
      {enabled && (
        <div className="flex gap-3">
          <label className="flex flex-1 flex-col gap-1 text-sm">
            Início
            <input
              type="time"
              value={start}
              onChange={(e) => setStart(e.target.value)}
              onBlur={commit}
              className="h-10 rounded-lg border border-border bg-card px-2"
            />
          </label>
          <label className="flex flex-1 flex-col gap-1 text-sm">
            Fim
            <input
              type="time"
              value={end}
              onChange={(e) => setEnd(e.target.value)}
              onBlur={commit}
              className="h-10 rounded-lg border border-border bg-card px-2"
            />
          </label>
        </div>
      )}
    </fieldset>
  )
}

/**
 * Notification settings: push on/off for the account, this device's
 * subscription, one switch per kind, quiet hours. Every change is saved at
 * once and rolled back if the server refuses it.
 */
export function NotificationSettingsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const prefs = usePreferences(open)
  const update = useUpdatePreferences(toast)
  const data = prefs.data
  const save = (next: NotificationPreferences, successMessage?: string) => update.mutate({ next, successMessage })
  const status = pushStatus(usePushState())
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Configurações de notificações" description="Escolha o que você quer receber.">
      {prefs.isPending && <p className="text-sm text-muted-foreground">Carregando preferências...</p>}
      {prefs.isError && <p className="text-sm text-muted-foreground">Não foi possível carregar as preferências.</p>}
      {data && (
        <div className="flex flex-col gap-4">
          <section aria-label="Notificações push" className="flex flex-col gap-2">
            <Switch
              label="Notificações push"
              description="Receba avisos mesmo com o app fechado"
              checked={data.push_enabled}
              onChange={(on) => {
                save({ ...data, push_enabled: on }, on ? 'Push notifications ativadas' : 'Push notifications desativadas')
                // Turning push on means on this device too: the switch and this
                // device's line never disagree unless the browser refuses.
                if (on && status === 'inactive') void subscribePush().catch((err) => toast.error(err instanceof PushError ? err.message : PUSH_MESSAGES.enableFailed))
              }}
            />
            {data.push_enabled && <DevicePushControl />}
          </section>
          <section aria-label="Tipos de notificação" className="flex flex-col divide-y divide-border border-y border-border">
            {TYPE_SWITCHES.map(({ key, label, description }) => (
              <Switch key={key} label={label} description={description} checked={data[key]} onChange={(on) => save({ ...data, [key]: on })} />
            ))}
          </section>
          <QuietHours prefs={data} save={(next) => save(next)} />
        </div>
      )}
    </Dialog>
  )
}
