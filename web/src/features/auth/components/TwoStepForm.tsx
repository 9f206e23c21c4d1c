import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { ApiError } from '@/lib/api'
import type { LoginResponse } from '../api'
import { useVerifyTwoStep } from '../api'
import { FormMessage } from './AuthShell'

export const TWO_STEP_TITLE = 'Verificação em duas etapas'
export const TWO_STEP_ERROR = 'Não foi possível verificar o código. Tente novamente.'

/**
 * The sign-in's second step: the 6-digit code of the authenticator app (or a
 * recovery code), with "Lembrar este dispositivo por 30 dias".
 */
export function TwoStepForm({ onDone, onRestart }: { onDone: (res: LoginResponse) => void; onRestart: () => void }) {
  const verify = useVerifyTwoStep()
  const [code, setCode] = useState('')
  const [remember, setRemember] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [expired, setExpired] = useState(false)

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    try {
      onDone(await verify.mutateAsync({ code: code.trim(), remember_device: remember }))
    } catch (err) {
      setError(err instanceof ApiError ? err.message : TWO_STEP_ERROR)
      // The challenge is gone (expired, or too many wrong codes): sign in again.
      setExpired(err instanceof ApiError && err.status === 401 && /expirou/.test(err.message))
      setCode('')
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" aria-label={TWO_STEP_TITLE}>
      <h2 className="text-lg font-semibold">{TWO_STEP_TITLE}</h2>
      <p className="text-sm text-muted-foreground">
        Digite o código de 6 dígitos do seu aplicativo autenticador ou um dos seus códigos de recuperação.
      </p>
      {error && <FormMessage kind="error">{error}</FormMessage>}
      <Input
        label="Código de verificação"
        name="code"
        autoComplete="one-time-code"
        inputMode="text"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        maxLength={20}
        required
        autoFocus
      />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} className="h-4 w-4" />
        Lembrar este dispositivo por 30 dias
      </label>
      {expired ? (
        <Button type="button" size="lg" onClick={onRestart}>
          Entrar novamente
        </Button>
      ) : (
        <Button type="submit" size="lg" loading={verify.isPending} disabled={code.trim() === ''}>
          Verificar
        </Button>
      )}
    </form>
  )
}
