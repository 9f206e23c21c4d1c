import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { toast } from '@/components/ui/toast'
import { ApiError, apiFetch } from '@/lib/api'
import { useAuth } from '@/lib/session/AuthProvider'

const GENERIC_ERROR = 'Erro ao processar requisição. Tente novamente.'

function messageOf(err: unknown) {
  return err instanceof ApiError ? err.message : GENERIC_ERROR
}

interface DataRequest {
  id: string
  kind: 'export' | 'deletion'
  status: string
  requested_at: string
  scheduled_for?: string
  expires_at?: string
  size?: number
  download_url?: string
}

interface DataOverview {
  requests: DataRequest[]
  deletion: DataRequest | null
}

const dataKey = ['me', 'data'] as const

const statusLabel: Record<string, string> = {
  pendente: 'Na fila',
  processando: 'Preparando',
  pronto: 'Pronto para baixar',
  erro: 'Falhou',
  expirado: 'Link expirado',
  agendada: 'Agendada',
  concluida: 'Concluída',
  cancelada: 'Cancelada',
}

function dateBR(iso?: string) {
  return iso ? new Date(iso).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' }) : ''
}

/** Meus dados (LGPD): export a copy of the member's data, and delete the account. */
export function DataSection() {
  const qc = useQueryClient()
  const overview = useQuery({
    queryKey: dataKey,
    queryFn: () => apiFetch<DataOverview>('/api/me/data'),
    refetchInterval: (q) => (q.state.data?.requests.some((r) => r.status === 'pendente' || r.status === 'processando') ? 2000 : false),
  })
  const requestExport = useMutation({
    mutationFn: () => apiFetch<DataRequest>('/api/me/data-exports', { method: 'POST' }),
    onSuccess: () => {
      toast.success('Pedido recebido. Enviaremos um e-mail quando o arquivo estiver pronto.')
      void qc.invalidateQueries({ queryKey: dataKey })
    },
    onError: (err) => toast.error(messageOf(err)),
  })
  const exports = overview.data?.requests.filter((r) => r.kind === 'export') ?? []

  return (
    <section id="meus-dados" aria-labelledby="profile-data" className="rounded-lg border border-border bg-card p-5">
      <h2 id="profile-data" className="text-lg font-semibold">
        Meus dados
      </h2>
      <div className="mt-3 flex flex-col gap-3">
        <p className="text-sm">
          Conforme a LGPD, você pode baixar uma cópia de tudo o que o VetClube guarda sobre você: perfil, publicações,
          comentários, conexões, cursos e certificados, VetCoins, notificações, conversas com a IA, assinatura e
          pagamentos, dados das ferramentas e os arquivos que você enviou. Uma exportação por dia; o link vale 7 dias.
        </p>
        <div>
          <Button onClick={() => requestExport.mutate()} loading={requestExport.isPending}>
            Exportar meus dados
          </Button>
        </div>
        {overview.isError && (
          <p role="alert" className="text-sm text-destructive">
            {messageOf(overview.error)}
          </p>
        )}
        {exports.length > 0 && (
          <ul aria-label="Exportações" className="flex flex-col gap-2 text-sm">
            {exports.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center gap-2">
                <span>Pedida em {dateBR(r.requested_at)}:</span>
                <span className="font-medium">{statusLabel[r.status] ?? r.status}</span>
                {r.download_url && (
                  <>
                    <a className="text-primary underline" href={r.download_url} download>
                      Baixar arquivo ZIP
                    </a>
                    <span className="text-muted-foreground">(até {dateBR(r.expires_at)})</span>
                  </>
                )}
              </li>
            ))}
          </ul>
        )}
        <DeleteAccount scheduled={overview.data?.deletion ?? null} />
      </div>
    </section>
  )
}

function DeleteAccount({ scheduled }: { scheduled: DataRequest | null }) {
  const [open, setOpen] = useState(false)
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const { signOut } = useAuth()
  const navigate = useNavigate()
  const sendCode = useMutation({
    mutationFn: () => apiFetch<{ message: string }>('/api/me/account-deletion/code', { method: 'POST' }),
    onSuccess: (r) => toast.success(r.message),
    onError: (err) => setError(messageOf(err)),
  })
  const request = useMutation({
    mutationFn: () =>
      apiFetch<DataRequest>('/api/me/account-deletion', {
        method: 'POST',
        body: password ? { password } : { code },
      }),
  })

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    try {
      const r = await request.mutateAsync()
      toast.success(`Exclusão agendada para ${dateBR(r.scheduled_for)}. Entrar de novo até lá cancela a exclusão.`)
      // The server ended every session: leave the app. The sign-in page says
      // why (the guard's redirect on sign-out drops any query string).
      sessionStorage.setItem('vc_deletion_scheduled', '1')
      try {
        await signOut()
      } catch {
        // already signed out by the server
      }
      navigate('/login', { replace: true })
    } catch (err) {
      setError(messageOf(err))
    }
  }

  if (scheduled)
    return (
      <p role="status" className="rounded-md bg-warning/10 p-3 text-sm font-medium">
        A exclusão da sua conta está agendada para {dateBR(scheduled.scheduled_for)}.
      </p>
    )
  if (!open)
    return (
      <div className="border-t border-border pt-3">
        <Button variant="outline" onClick={() => setOpen(true)}>
          Excluir minha conta
        </Button>
      </div>
    )
  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3 border-t border-border pt-3" aria-label="Excluir minha conta">
      <p className="text-sm">
        Sua conta será excluída em 30 dias: publicações e comentários ficam sem o seu nome (aparecem como “Usuário
        VetClube”), seus dados e arquivos são apagados e a assinatura é cancelada. Se você entrar de novo antes disso, a exclusão é cancelada.
      </p>
      <Input
        label="Confirme com a sua senha"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <p className="text-sm text-muted-foreground">
        Entrou com o Google ou prefere um código?{' '}
        <button type="button" className="text-primary underline" onClick={() => sendCode.mutate()}>
          Enviar código por e-mail
        </button>
      </p>
      <Input label="Código recebido por e-mail" inputMode="numeric" maxLength={6} value={code} onChange={(e) => setCode(e.target.value)} />
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <div className="flex gap-2">
        <Button type="submit" variant="destructive" loading={request.isPending}>
          Confirmar exclusão
        </Button>
        <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
          Voltar
        </Button>
      </div>
    </form>
  )
}
