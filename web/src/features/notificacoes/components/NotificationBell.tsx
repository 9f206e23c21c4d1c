import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { Bell, Check, CheckCheck, Settings, Trash2 } from 'lucide-react'
import { Avatar } from '@/components/ui/Avatar'
import { Button } from '@/components/ui/Button'
import { cn } from '@/lib/cn'
import {
  unreadCount,
  useAnswerConnection,
  useClearNotifications,
  useDeleteNotification,
  useMarkAllRead,
  useMarkRead,
  useNotifications,
  type Notification,
} from '../api'
import { syncAppBadge } from '../appBadge'
import { badgeLabel, clickAction, relatedUserName, relativeTime } from '../view'
import { NotificationSettingsDialog } from './NotificationSettingsDialog'

function NotificationItem({ n, onNavigate }: { n: Notification; onNavigate: (to: string) => void }) {
  const markRead = useMarkRead()
  const remove = useDeleteNotification()
  const answer = useAnswerConnection()
  const action = clickAction(n)
  const name = relatedUserName(n)
  const pendingConnection = action.kind === 'connection' && !!action.connectionId && !n.is_read

  const open = () => {
    // A connection's answer is Aceitar / Recusar: a click on the text does not settle it.
    if (action.kind === 'connection') return
    if (!n.is_read) markRead.mutate(n.id)
    if (action.kind === 'navigate') onNavigate(action.to)
  }

  return (
    <li className={cn('flex gap-3 px-4 py-3', !n.is_read && 'bg-accent/40')} data-testid="notification-item" data-read={n.is_read}>
      <Avatar src={n.related_user?.avatar_url} name={name ?? 'VetClube'} />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <button type="button" onClick={open} className="flex flex-col items-start gap-0.5 text-left">
          {name && <span className="text-xs font-semibold text-muted-foreground">{name}</span>}
          <span className="text-sm font-semibold">{n.title}</span>
          <span className="text-sm text-muted-foreground">{n.message}</span>
          <time dateTime={n.created_at} className="text-xs text-muted-foreground">
            {relativeTime(n.created_at)}
          </time>
        </button>
        {pendingConnection && (
          <div className="mt-1 flex gap-2">
            <Button size="sm" loading={answer.isPending && answer.variables?.answer === 'accept'} disabled={answer.isPending} onClick={() => answer.mutate({ notification: n, answer: 'accept' })}>
              Aceitar
            </Button>
            <Button
              size="sm"
              variant="outline"
              loading={answer.isPending && answer.variables?.answer === 'reject'}
              disabled={answer.isPending}
              onClick={() => answer.mutate({ notification: n, answer: 'reject' })}
            >
              Recusar
            </Button>
          </div>
        )}
      </div>
      <div className="flex shrink-0 flex-col items-center gap-1">
        {!n.is_read && (
          <button type="button" aria-label={`Marcar como lida: ${n.title}`} onClick={() => markRead.mutate(n.id)} className="rounded-md p-1 text-muted-foreground hover:bg-muted">
            <Check aria-hidden="true" className="h-4 w-4" />
          </button>
        )}
        <button type="button" aria-label={`Excluir notificação: ${n.title}`} onClick={() => remove.mutate(n.id)} className="rounded-md p-1 text-muted-foreground hover:bg-muted">
          <Trash2 aria-hidden="true" className="h-4 w-4" />
        </button>
      </div>
    </li>
  )
}

/** The top bar's bell: unread badge, the dropdown of the newest notifications, the settings dialog. */
export function NotificationBell() {
  const [open, setOpen] = useState(false)
  const [settingsOpen, setSettingsOpen] = useState(false)
  const ref = useRef<HTMLDivElement>(null)
  const navigate = useNavigate()
  const list = useNotifications()
  const markAll = useMarkAllRead()
  const clear = useClearNotifications()
  const count = unreadCount(list.data)
  const badge = badgeLabel(count)
  const items = list.data?.notifications ?? []

  useEffect(() => syncAppBadge(count), [count])

  useEffect(() => {
    if (!open) return
    const onPointer = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) setOpen(false)
    }
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false)
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  const go = (to: string) => {
    setOpen(false)
    navigate(to)
  }

  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        aria-expanded={open}
        aria-haspopup="true"
        onClick={() => setOpen((v) => !v)}
        className="relative inline-flex h-10 w-10 items-center justify-center rounded-lg hover:bg-muted"
      >
        <Bell aria-hidden="true" className="h-5 w-5" />
        {/* Named by its content, not aria-label: the badge's visible '9+' must be part of the name. */}
        <span className="sr-only">Notificações</span>
        {badge && ' '}
        {badge && (
          <span
            data-testid="notification-badge"
            className="absolute right-0.5 top-0.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-destructive px-1 text-[0.7rem] font-bold leading-none text-destructive-foreground"
          >
            {badge}
          </span>
        )}
        {badge && ' '}
        {badge && <span className="sr-only">não lidas</span>}
      </button>
      {open && (
        <div
          role="region"
          aria-label="Notificações"
          className="fixed inset-x-2 top-14 z-50 flex flex-col sm:absolute sm:inset-x-auto sm:right-0 sm:top-12 sm:w-96 rounded-xl border border-border bg-card text-sm text-card-foreground shadow-lg"
        >
          <div className="flex items-center justify-between gap-2 border-b border-border px-4 py-3">
            <h2 className="font-semibold">Notificações</h2>
            <div className="flex items-center gap-1">
              {count > 0 && (
                <button type="button" onClick={() => markAll.mutate()} className="inline-flex items-center gap-1 rounded-md px-2 py-1 text-xs font-medium text-primary hover:bg-muted">
                  <CheckCheck aria-hidden="true" className="h-4 w-4" />
                  Marcar todas como lidas
                </button>
              )}
              <button
                type="button"
                aria-label="Configurações de notificações"
                onClick={() => {
                  setOpen(false)
                  setSettingsOpen(true)
                }}
                className="rounded-md p-1 text-muted-foreground hover:bg-muted"
              >
                <Settings aria-hidden="true" className="h-4 w-4" />
              </button>
            </div>
          </div>
          {items.length === 0 ? (
            <p className="px-4 py-6 text-center text-muted-foreground">Nenhuma notificação no momento.</p>
          ) : (
            <ul aria-label="Lista de notificações" className="max-h-96 divide-y divide-border overflow-y-auto">
              {items.map((n) => (
                <NotificationItem key={n.id} n={n} onNavigate={go} />
              ))}
            </ul>
          )}
          {items.length > 0 && (
            <div className="border-t border-border p-2">
              <Button variant="ghost" size="sm" className="w-full" onClick={() => clear.mutate()}>
                Limpar todas
              </Button>
            </div>
          )}
        </div>
      )}
      <NotificationSettingsDialog open={settingsOpen} onOpenChange={setSettingsOpen} />
    </div>
  )
}
