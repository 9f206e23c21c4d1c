import { useEffect, useRef, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Check, Clock, UserPlus } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { queryKeys } from '@/lib/queryKeys'
import {
  useAcceptConnection,
  useCancelRequest,
  useConnectionStatus,
  useRejectConnection,
  useRemoveConnection,
  useRequestConnection,
} from '../api'
import { RemoveConnectionDialog } from './RemoveConnectionDialog'

/**
 * The public profile's connection control for a signed-in visitor: Conectar,
 * a pending request (cancel), one to answer (Aceitar / Recusar), or the
 * connection (remove, after confirmation).
 */
export function ConnectButton({ userId, name }: { userId: string; name: string }) {
  const status = useConnectionStatus(userId)
  const request = useRequestConnection()
  const accept = useAcceptConnection()
  const reject = useRejectConnection()
  const cancel = useCancelRequest()
  const remove = useRemoveConnection()
  const [confirming, setConfirming] = useState(false)
  const queryClient = useQueryClient()
  const seen = useRef<string | undefined>(undefined)
  const current = status.data?.status
  useEffect(() => {
    // The pair changed elsewhere (the other member answered, or another
    // tab): the profile's connections_count shown above changed with it.
    if (seen.current !== undefined && current !== undefined && current !== seen.current) {
      void queryClient.invalidateQueries({ queryKey: [...queryKeys.profile, 'public', userId] })
    }
    seen.current = current
  }, [current, queryClient, userId])

  if (status.isPending) return <Spinner label="Carregando conexão..." />
  const { status: state, id } = status.data ?? { status: 'none', id: null }
  const busy = request.isPending || accept.isPending || reject.isPending || cancel.isPending || remove.isPending

  switch (state) {
    case 'blocked':
      return null
    case 'pending_sent':
      return (
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Conexão">
          <span className="inline-flex items-center gap-1 text-sm text-muted-foreground">
            <Clock aria-hidden="true" className="h-4 w-4" />
            Solicitação enviada
          </span>
          <Button variant="outline" size="sm" loading={cancel.isPending} disabled={busy} onClick={() => id && cancel.mutate(id)}>
            Cancelar solicitação
          </Button>
        </div>
      )
    case 'pending_received':
      return (
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Conexão">
          <span className="text-sm text-muted-foreground">{name} quer se conectar com você</span>
          <Button size="sm" loading={accept.isPending} disabled={busy} onClick={() => id && accept.mutate(id)}>
            Aceitar
          </Button>
          <Button variant="outline" size="sm" loading={reject.isPending} disabled={busy} onClick={() => id && reject.mutate(id)}>
            Recusar
          </Button>
        </div>
      )
    case 'connected':
      return (
        <div className="flex flex-wrap items-center gap-2" role="group" aria-label="Conexão">
          <span className="inline-flex items-center gap-1 text-sm font-medium text-primary">
            <Check aria-hidden="true" className="h-4 w-4" />
            Conectado
          </span>
          <Button variant="outline" size="sm" disabled={busy} onClick={() => setConfirming(true)}>
            Remover conexão
          </Button>
          <RemoveConnectionDialog
            name={name}
            open={confirming}
            onOpenChange={setConfirming}
            pending={remove.isPending}
            onConfirm={() => id && remove.mutate(id, { onSettled: () => setConfirming(false) })}
          />
        </div>
      )
    default:
      return (
        <Button className="self-start" loading={request.isPending} disabled={busy} onClick={() => request.mutate(userId)}>
          <UserPlus aria-hidden="true" className="h-4 w-4" />
          Conectar
        </Button>
      )
  }
}
