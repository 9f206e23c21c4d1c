import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { toast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api'
import { PasskeysSection } from '@/features/passkeys'
import { EmailChangeSection } from '@/features/emailchange'
import { Link } from 'react-router'
import { useBeginTOTP, useChangePassword, useConfirmTOTP, useDisableTOTP, useRevokeSession, useSessions, useTwoStepStatus, type TOTPEnrolment } from '../twoStep'

const GENERIC_ERROR = 'Erro ao processar requisição. Tente novamente.'

function messageOf(err: unknown) {
  return err instanceof ApiError ? err.message : GENERIC_ERROR
}

/** Segurança: two-step verification with an authenticator app (enrol, recovery codes, disable). */
export function SecuritySection() {
  const status = useTwoStepStatus()
  const begin = useBeginTOTP()
  const [enrolment, setEnrolment] = useState<TOTPEnrolment | null>(null)
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null)
  const [error, setError] = useState<string | null>(null)

  async function onBegin() {
    setError(null)
    try {
      setEnrolment(await begin.mutateAsync())
    } catch (err) {
      setError(messageOf(err))
    }
  }

  let body
  if (status.isPending) body = <p className="text-sm text-muted-foreground">Carregando...</p>
  else if (status.isError) body = <p role="alert" className="text-sm text-destructive">{messageOf(status.error)}</p>
  else if (recoveryCodes) body = <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />
  else if (status.data.enabled) body = <EnabledTwoStep codesLeft={status.data.recovery_codes_left} />
  else if (enrolment)
    body = (
      <ConfirmEnrolment
        enrolment={enrolment}
        onConfirmed={(codes) => {
          setEnrolment(null)
          setRecoveryCodes(codes)
        }}
      />
    )
  else
    body = (
      <div className="flex flex-col gap-3">
        <p className="text-sm">
          Proteja sua conta pedindo, além da senha, um código do seu aplicativo autenticador (Google Authenticator, Authy,
          1Password...).
        </p>
        {status.data.required && (
          <p role="status" className="rounded-md bg-warning/10 p-3 text-sm font-medium">
            Sua função na equipe exige a verificação em duas etapas para abrir o painel administrativo.
          </p>
        )}
        {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
        <div>
          <Button onClick={onBegin} loading={begin.isPending}>
            Ativar verificação em duas etapas
          </Button>
        </div>
      </div>
    )

  return (
    <section id="seguranca" aria-labelledby="profile-security" className="rounded-lg border border-border bg-card p-5">
      <h2 id="profile-security" className="text-lg font-semibold">
        Segurança
      </h2>
      <h3 className="mt-3 text-sm font-semibold uppercase tracking-wide text-muted-foreground">Verificação em duas etapas</h3>
      <div className="mt-2">{body}</div>
      <h3 className="mt-6 text-sm font-semibold uppercase tracking-wide text-muted-foreground">Passkeys</h3>
      <div className="mt-2">
        <PasskeysSection />
      </div>
      <h3 className="mt-6 text-sm font-semibold uppercase tracking-wide text-muted-foreground">E-mail</h3>
      <div className="mt-2">
        <EmailChangeSection />
      </div>
      <h3 className="mt-6 text-sm font-semibold uppercase tracking-wide text-muted-foreground">Senha</h3>
      <div className="mt-2">
        <ChangePassword />
      </div>
      <h3 className="mt-6 text-sm font-semibold uppercase tracking-wide text-muted-foreground">Sessões ativas</h3>
      <div className="mt-2">
        <Sessions />
      </div>
      <p className="mt-6 text-sm">
        <Link to="/debug" className="font-medium text-primary underline-offset-4 hover:underline">
          Diagnóstico do aplicativo
        </Link>
      </p>
    </section>
  )
}

function ChangePassword() {
  const change = useChangePassword()
  const [current, setCurrent] = useState('')
  const [next, setNext] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setDone(null)
    try {
      const res = await change.mutateAsync({ current_password: current, password: next })
      setDone(res.message)
      setCurrent('')
      setNext('')
    } catch (err) {
      setError(messageOf(err))
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label="Alterar senha">
      {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
      {done && <p role="status" className="text-sm font-medium">{done}</p>}
      <Input label="Senha atual" name="current_password" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
      <Input
        label="Nova senha"
        name="new_password"
        type="password"
        autoComplete="new-password"
        hint="Pelo menos 8 caracteres, com maiúscula, minúscula, número e símbolo. As outras sessões serão encerradas."
        value={next}
        onChange={(e) => setNext(e.target.value)}
      />
      <div>
        <Button type="submit" variant="outline" loading={change.isPending} disabled={current === '' || next === ''}>
          Alterar senha
        </Button>
      </div>
    </form>
  )
}

function ConfirmEnrolment({ enrolment, onConfirmed }: { enrolment: TOTPEnrolment; onConfirmed: (codes: string[]) => void }) {
  const confirm = useConfirmTOTP()
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    try {
      const res = await confirm.mutateAsync(code.trim())
      toast.success(res.message)
      onConfirmed(res.recovery_codes)
    } catch (err) {
      setError(messageOf(err))
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label="Confirmar verificação em duas etapas">
      <p className="text-sm">1. Escaneie o QR code com seu aplicativo autenticador.</p>
      <img src={enrolment.qr_code} alt="QR code para o aplicativo autenticador" width={200} height={200} className="rounded-md border border-border bg-white" />
      <p className="text-sm">
        Não consegue escanear? Digite esta chave no aplicativo:{' '}
        <code data-testid="totp-secret" className="break-all font-mono font-semibold">
          {enrolment.secret}
        </code>
      </p>
      <p className="text-sm">2. Digite o código de 6 dígitos que o aplicativo mostra.</p>
      {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
      <Input
        label="Código do aplicativo"
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <div>
        <Button type="submit" loading={confirm.isPending} disabled={code.trim().length !== 6}>
          Confirmar e ativar
        </Button>
      </div>
    </form>
  )
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div className="flex flex-col gap-3">
      <p role="status" className="text-sm font-medium">
        Verificação em duas etapas ativada. Guarde estes códigos de recuperação em um lugar seguro: cada um funciona uma
        única vez, caso você perca o acesso ao aplicativo. Eles não serão mostrados novamente.
      </p>
      <ul aria-label="Códigos de recuperação" className="grid grid-cols-2 gap-2 font-mono text-sm">
        {codes.map((c) => (
          <li key={c} className="rounded bg-muted px-2 py-1">
            {c}
          </li>
        ))}
      </ul>
      <div>
        <Button onClick={onDone}>Já guardei meus códigos</Button>
      </div>
    </div>
  )
}

function EnabledTwoStep({ codesLeft }: { codesLeft: number }) {
  const disable = useDisableTOTP()
  const [open, setOpen] = useState(false)
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    try {
      const res = await disable.mutateAsync({ password, code: code.trim() })
      toast.success(res.message)
    } catch (err) {
      setError(messageOf(err))
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm font-medium">Ativa: o login pede um código do seu aplicativo autenticador.</p>
      <p className="text-sm text-muted-foreground">
        {codesLeft === 1 ? 'Resta 1 código de recuperação.' : `Restam ${codesLeft} códigos de recuperação.`}
      </p>
      {!open ? (
        <div>
          <Button variant="outline" onClick={() => setOpen(true)}>
            Desativar
          </Button>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" aria-label="Desativar verificação em duas etapas">
          {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
          <Input label="Senha atual" name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          <Input label="Código do aplicativo ou de recuperação" name="code" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} maxLength={20} />
          <div>
            <Button type="submit" variant="outline" loading={disable.isPending} disabled={code.trim() === ''}>
              Desativar verificação em duas etapas
            </Button>
          </div>
        </form>
      )}
    </div>
  )
}

const dateTime = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Sao_Paulo' })

function Sessions() {
  const sessions = useSessions()
  const revoke = useRevokeSession()
  if (sessions.isPending) return <p className="text-sm text-muted-foreground">Carregando...</p>
  if (sessions.isError) return <p role="alert" className="text-sm text-destructive">{messageOf(sessions.error)}</p>
  return (
    <ul aria-label="Sessões ativas" className="flex flex-col gap-2">
      {sessions.data.sessions.map((s) => (
        <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-border p-3 text-sm">
          <div className="min-w-0">
            <p className="break-words font-medium">{s.user_agent || 'Dispositivo desconhecido'}</p>
            <p className="text-muted-foreground">
              {s.current ? 'Esta sessão · ' : ''}último uso em {dateTime.format(new Date(s.last_used_at))}
            </p>
          </div>
          {!s.current && (
            <Button variant="outline" size="sm" loading={revoke.isPending && revoke.variables === s.id} onClick={() => revoke.mutate(s.id)}>
              Encerrar
            </Button>
          )}
        </li>
      ))}
    </ul>
  )
}
