import { useState, type FormEvent } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { ApiError, apiFetch } from '@/lib/api'

type EmailSettings = { email: string; has_password: boolean; google: boolean; pending: { new_email: string; expires_at: string } | null }
const key = ['auth', 'email'] as const

/** Segurança → E-mail: change it (confirmed at the new address; the old one can undo for 7 days). */
export function EmailChangeSection() {
  const qc = useQueryClient()
  const settings = useQuery({ queryKey: key, queryFn: () => apiFetch<EmailSettings>('/api/auth/email') })
  const change = useMutation({
    retry: false,
    mutationFn: (v: { email: string; password: string }) => apiFetch<{ message: string }>('/api/auth/email/change', { method: 'POST', body: v }),
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  })
  const cancel = useMutation({
    retry: false,
    mutationFn: () => apiFetch<void>('/api/auth/email/change', { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  })
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setDone(null)
    try {
      setDone((await change.mutateAsync({ email: email.trim(), password })).message)
      setEmail('')
      setPassword('')
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Erro ao processar requisição. Tente novamente.')
    }
  }

  if (settings.isPending) return <p className="text-sm text-muted-foreground">Carregando...</p>
  if (settings.isError) return <p role="alert" className="text-sm text-destructive">{(settings.error as Error).message}</p>
  const s = settings.data
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label="Alterar e-mail">
      <p className="text-sm">
        E-mail atual: <strong className="break-all">{s.email}</strong>
      </p>
      {s.google && (
        <p className="rounded-md bg-muted p-3 text-sm">
          Sua conta também entra com o Google. Trocar o e-mail aqui não muda sua conta Google: você continua entrando com ela, e as mensagens
          do VetClube passam a ir para o novo endereço.{!s.has_password && ' Como sua conta não tem senha, basta confirmar pelo link enviado ao novo endereço.'}
        </p>
      )}
      {s.pending && (
        <p role="status" className="rounded-md bg-warning/10 p-3 text-sm">
          Aguardando confirmação de <strong className="break-all">{s.pending.new_email}</strong> (o link vale até{' '}
          {new Date(s.pending.expires_at).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' })}).{' '}
          <button type="button" className="font-medium text-primary underline" onClick={() => cancel.mutate()}>
            Cancelar troca
          </button>
        </p>
      )}
      {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
      {done && <p role="status" className="text-sm font-medium">{done}</p>}
      <Input label="Novo e-mail" name="new_email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      {s.has_password && (
        <Input label="Senha atual" name="email_password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      )}
      <p className="text-xs text-muted-foreground">
        Enviaremos um link ao novo endereço; o e-mail só muda quando você abri-lo. O endereço atual recebe um aviso com um link para desfazer a
        troca por 7 dias.
      </p>
      <div>
        <Button type="submit" variant="outline" loading={change.isPending} disabled={email.trim() === '' || (s.has_password && password === '')}>
          Alterar e-mail
        </Button>
      </div>
    </form>
  )
}
