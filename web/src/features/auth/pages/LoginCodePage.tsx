import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { toast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api'
import { useAuth } from '@/lib/session/AuthProvider'
import { needsTwoStep, useLoginWithCode, useRequestLoginCode, type LoginAnswer, type LoginResponse } from '../api'
import { AuthShell, FormMessage } from '../components/AuthShell'
import { TwoStepForm } from '../components/TwoStepForm'
import { LOGIN_SUCCESS_MESSAGE } from '../loginMessages'
import { returnPathFrom } from '../returnPath'

const GENERIC_ERROR = 'Erro ao processar requisição. Tente novamente.'

/**
 * /login/codigo: 'Entrar com código'. The member asks for a 6-digit code by
 * e-mail and types it here, or opens the e-mail's link (?token=…), which
 * signs in at once. Two-step verification follows when the account has it.
 */
export default function LoginCodePage() {
  const { setUser } = useAuth()
  const location = useLocation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const request = useRequestLoginCode()
  const verify = useLoginWithCode()
  const returnPath = returnPathFrom(location.search)
  const token = new URLSearchParams(location.search).get('token')
  const [step, setStep] = useState<'email' | 'code' | 'two-step'>('email')
  const [email, setEmail] = useState('')
  const [code, setCode] = useState('')
  const [sent, setSent] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const linkTried = useRef(false)

  function signedIn(res: LoginResponse) {
    queryClient.clear()
    setUser(res.user)
    toast.success(res.message || LOGIN_SUCCESS_MESSAGE)
    navigate(returnPath, { replace: true })
  }

  function handle(res: LoginAnswer) {
    if (needsTwoStep(res)) setStep('two-step')
    else signedIn(res)
  }

  useEffect(() => {
    if (!token || linkTried.current) return
    linkTried.current = true
    verify.mutateAsync({ token }).then(handle, (err) => setError(err instanceof ApiError ? err.message : GENERIC_ERROR))
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token])

  async function onRequest(e?: FormEvent) {
    e?.preventDefault()
    setError(null)
    try {
      const res = await request.mutateAsync(email.trim())
      setSent(res.message)
      setStep('code')
    } catch (err) {
      setError(err instanceof ApiError ? err.message : GENERIC_ERROR)
    }
  }

  async function onVerify(e: FormEvent) {
    e.preventDefault()
    setError(null)
    try {
      handle(await verify.mutateAsync({ email: email.trim(), code: code.trim() }))
    } catch (err) {
      setError(err instanceof ApiError ? err.message : GENERIC_ERROR)
      setCode('')
    }
  }

  return (
    <AuthShell
      title="Entrar com código"
      description="Receba um código de acesso por email, sem precisar da senha"
      footer={
        <Link to={`/login?redirect=${encodeURIComponent(returnPath)}`} className="font-semibold text-primary underline-offset-4 hover:underline">
          Entrar com senha
        </Link>
      }
    >
      {step === 'two-step' ? (
        <TwoStepForm onDone={signedIn} onRestart={() => setStep('email')} />
      ) : token && step === 'email' && !error ? (
        <p role="status" className="text-sm">
          Entrando...
        </p>
      ) : step === 'email' ? (
        <form onSubmit={onRequest} noValidate className="flex flex-col gap-4">
          {error && <FormMessage kind="error">{error}</FormMessage>}
          <Input label="Email" name="email" type="email" autoComplete="email" inputMode="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoFocus />
          <Button type="submit" size="lg" loading={request.isPending} disabled={email.trim() === ''}>
            Enviar código
          </Button>
        </form>
      ) : (
        <form onSubmit={onVerify} noValidate className="flex flex-col gap-4">
          {sent && <FormMessage kind="success">{sent}</FormMessage>}
          {error && <FormMessage kind="error">{error}</FormMessage>}
          <Input
            label="Código de acesso"
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={6}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            required
            autoFocus
          />
          <Button type="submit" size="lg" loading={verify.isPending} disabled={code.trim().length !== 6}>
            Entrar
          </Button>
          <Button variant="outline" onClick={() => void onRequest()} loading={request.isPending}>
            Enviar novo código
          </Button>
        </form>
      )}
    </AuthShell>
  )
}
