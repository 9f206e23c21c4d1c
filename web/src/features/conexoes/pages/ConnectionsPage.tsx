import { useDeferredValue, useState, type ReactNode } from 'react'
import { Search, UserPlus } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { useSpecialties } from '@/features/profile'
import { displayName } from '@/lib/names'
import {
  useAcceptConnection,
  useCancelRequest,
  useConnectionLists,
  useRejectConnection,
  useRemoveConnection,
  useRequestConnection,
  useSuggestions,
  type Connection,
  type Suggestion,
} from '../api'
import { PersonRow } from '../components/PersonRow'
import { RemoveConnectionDialog } from '../components/RemoveConnectionDialog'

function Section({ id, title, count, children }: { id: string; title: string; count?: number; children: ReactNode }) {
  return (
    <Card className="p-4 sm:p-5" aria-labelledby={id} role="region">
      <h2 id={id} className="flex items-center gap-2 text-lg font-semibold">
        {title}
        {count !== undefined && count > 0 && (
          <span className="rounded-full bg-accent px-2 py-0.5 text-xs font-semibold text-accent-foreground">{count}</span>
        )}
      </h2>
      {children}
    </Card>
  )
}

function Empty({ children }: { children: ReactNode }) {
  return <p className="py-3 text-sm text-muted-foreground">{children}</p>
}

/** /connections: requests to answer, requests sent, connections (search, remove) and suggestions. */
export default function ConnectionsPage() {
  usePageTitle('Conexões')
  const [search, setSearch] = useState('')
  const q = useDeferredValue(search)
  const lists = useConnectionLists(q)
  const accept = useAcceptConnection()
  const reject = useRejectConnection()
  const cancel = useCancelRequest()
  const remove = useRemoveConnection()
  const [removing, setRemoving] = useState<Connection | null>(null)
  // Which row's button shows the spinner (one mutation serves every row).
  const pendingId = (m: { isPending: boolean; variables?: string }) => (m.isPending ? m.variables : undefined)

  const data = lists.data
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-5 py-4">
      <h1 className="text-2xl font-bold tracking-tight">Conexões</h1>
      {lists.isPending ? (
        <div className="flex justify-center py-10">
          <Spinner label="Carregando conexões..." />
        </div>
      ) : (
        <>
          <Section id="conexoes-recebidas" title="Solicitações recebidas" count={data?.received.length}>
            {data?.received.length ? (
              <ul className="divide-y divide-border" aria-label="Solicitações recebidas">
                {data.received.map((r) => (
                  <PersonRow key={r.id} user={r.user}>
                    <Button
                      size="sm"
                      loading={pendingId(accept) === r.id}
                      disabled={accept.isPending || reject.isPending}
                      onClick={() => accept.mutate(r.id)}
                      aria-label={`Aceitar ${displayName(r.user)}`}
                    >
                      Aceitar
                    </Button>
                    <Button
                      size="sm"
                      variant="outline"
                      loading={pendingId(reject) === r.id}
                      disabled={accept.isPending || reject.isPending}
                      onClick={() => reject.mutate(r.id)}
                      aria-label={`Recusar ${displayName(r.user)}`}
                    >
                      Recusar
                    </Button>
                  </PersonRow>
                ))}
              </ul>
            ) : (
              <Empty>Nenhuma solicitação pendente.</Empty>
            )}
          </Section>

          {data && data.sent.length > 0 && (
            <Section id="conexoes-enviadas" title="Solicitações enviadas" count={data.sent.length}>
              <ul className="divide-y divide-border" aria-label="Solicitações enviadas">
                {data.sent.map((r) => (
                  <PersonRow key={r.id} user={r.user} detail="Aguardando resposta">
                    <Button
                      size="sm"
                      variant="outline"
                      loading={pendingId(cancel) === r.id}
                      disabled={cancel.isPending}
                      onClick={() => cancel.mutate(r.id)}
                      aria-label={`Cancelar solicitação para ${displayName(r.user)}`}
                    >
                      Cancelar solicitação
                    </Button>
                  </PersonRow>
                ))}
              </ul>
            </Section>
          )}

          <Section id="minhas-conexoes" title="Minhas conexões" count={q.trim() ? undefined : data?.connections.length}>
            <div className="relative mt-3">
              <Input
                label="Buscar conexões"
                type="search"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                placeholder="Nome da conexão"
                maxLength={100}
                className="w-full pl-9"
              />
              <Search aria-hidden="true" className="pointer-events-none absolute bottom-3.5 left-3 h-4 w-4 text-muted-foreground" />
            </div>
            {data?.connections.length ? (
              <ul className="divide-y divide-border" aria-label="Minhas conexões">
                {data.connections.map((c) => (
                  <PersonRow key={c.id} user={c.user}>
                    <Button size="sm" variant="ghost" onClick={() => setRemoving(c)} aria-label={`Remover ${displayName(c.user)}`}>
                      Remover
                    </Button>
                  </PersonRow>
                ))}
              </ul>
            ) : (
              <Empty>{q.trim() ? 'Nenhuma conexão encontrada.' : 'Você ainda não tem conexões.'}</Empty>
            )}
          </Section>
        </>
      )}
      <Suggestions />
      <RemoveConnectionDialog
        name={removing ? displayName(removing.user) : ''}
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing.id, { onSettled: () => setRemoving(null) })}
      />
    </div>
  )
}

function suggestionDetail(s: Suggestion, labelOf: (v: string) => string): string {
  const parts: string[] = []
  if (s.mutual_count > 0) parts.push(s.mutual_count === 1 ? '1 conexão em comum' : `${s.mutual_count} conexões em comum`)
  if (s.shared_specialties.length > 0) parts.push(s.shared_specialties.map(labelOf).join(', '))
  return parts.join(' · ')
}

/** Up to six people ranked by the server; Conectar sends the request. */
function Suggestions() {
  const suggestions = useSuggestions()
  const request = useRequestConnection()
  const specialties = useSpecialties()
  const labelOf = (v: string) => specialties.data?.find((s) => s.value === v)?.label ?? v
  if (!suggestions.data?.length) return null
  return (
    <Section id="sugestoes" title="Sugestões para você">
      <ul className="divide-y divide-border" aria-label="Sugestões para você">
        {suggestions.data.map((s) => (
          <PersonRow key={s.user.id} user={s.user} detail={suggestionDetail(s, labelOf) || undefined}>
            <Button
              size="sm"
              variant="secondary"
              loading={request.isPending && request.variables === s.user.id}
              disabled={request.isPending}
              onClick={() => request.mutate(s.user.id)}
              aria-label={`Conectar com ${displayName(s.user)}`}
            >
              <UserPlus aria-hidden="true" className="h-4 w-4" />
              Conectar
            </Button>
          </PersonRow>
        ))}
      </ul>
    </Section>
  )
}
