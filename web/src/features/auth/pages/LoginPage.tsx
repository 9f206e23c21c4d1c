import { useState, type FormEvent } from 'react'
import { Link, Navigate, useLocation, useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { toast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api'
import { useAuth } from '@/lib/session/AuthProvider'
import { needsTwoStep, useAuthProviders, useLoginWithTwoStep, useResendConfirmation, type LoginResponse } from '../api'
import { AuthShell, FormMessage } from '../components/AuthShell'
import { GoogleIcon } from '../components/GoogleIcon'
import { PasskeyLoginButton } from '@/features/passkeys'
import { TwoStepForm } from '../components/TwoStepForm'
import { googleErrorMessage, googleStartUrl } from '../googleErrors'
import { LOGIN_SUCCESS_MESSAGE, loginErrorMessage } from '../loginMessages'
import { returnPathFrom } from '../returnPath'

export default function LoginPage() {
  const { isAuthenticated, loading, setUser } = useAuth()
  const location = useLocation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const login = useLoginWithTwoStep()
  const resend = useResendConfirmation()
  const providers = useAuthProviders()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(() => googleErrorMessage(location.search))
  const [unconfirmed, setUnconfirmed] = useState(false)
  const returnPath = returnPathFrom(location.search)
  // After the password, or back from Google with ?verificacao=1: the code step.
  const [twoStep, setTwoStep] = useState(() => new URLSearchParams(location.search).get('verificacao') === '1')
  const [finishing, setFinishing] = useState(false)
  // Back from 'Excluir minha conta' (DataSection leaves the flag): signing in
  // again within the grace cancels it. Said once, then forgotten.
  const [deletionScheduled] = useState(() => {
    const flagged = sessionStorage.getItem('vc_deletion_scheduled') === '1'
    sessionStorage.removeItem('vc_deletion_scheduled')
    return flagged
  })

  if (!loading && isAuthenticated && !login.isPending && !login.isSuccess && !finishing) {
    return <Navigate to={returnPath} replace />
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setUnconfirmed(false)
    try {
      const res = await login.mutateAsync({ email: email.trim(), password })
      if (needsTwoStep(res)) {
        setTwoStep(true)
        return
      }
      signedIn(res)
    } catch (err) {
      setError(loginErrorMessage(err))
      setUnconfirmed(err instanceof ApiError && err.status === 403)
    }
  }

  function signedIn(res: LoginResponse) {
    setFinishing(true)
    // Another account may have been cached on this device: start clean.
    queryClient.clear()
    setUser(res.user)
    toast.success(res.message || LOGIN_SUCCESS_MESSAGE)
    navigate(returnPath, { replace: true })
  }

  async function onResend() {
    try {
      const res = await resend.mutateAsync(email.trim())
      toast.success(res.message)
    } catch (err) {
      toast.error(err instanceof ApiError ? err.message : 'Erro ao processar requisição. Tente novamente.')
    }
  }

  return (
    <AuthShell
      title="Entrar"
      description="Acesse sua conta do VetClube"
      footer={
        <>
          Ainda não tem conta?{' '}
          <Link to="/register" className="font-semibold text-primary underline-offset-4 hover:underline">
            Criar conta
          </Link>
        </>
      }
    >
      {twoStep ? (
        <TwoStepForm
          onDone={signedIn}
          onRestart={() => {
            setTwoStep(false)
            setPassword('')
            login.reset()
          }}
        />
      ) : (
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        {error && <FormMessage kind="error">{error}</FormMessage>}
        {deletionScheduled && !error && (
          <FormMessage kind="success">
            A exclusão da sua conta foi agendada para daqui a 30 dias e você saiu de todos os dispositivos. Se mudar de ideia,
            é só entrar de novo até lá: a exclusão é cancelada.
          </FormMessage>
        )}
        {unconfirmed && (
          <Button variant="outline" onClick={onResend} loading={resend.isPending} disabled={email.trim() === ''}>
            Reenviar email de confirmação
          </Button>
        )}
        <Input
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
          // The page has one job: the cursor waits where it starts.
          autoFocus
        />
        <Input
          label="Senha"
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        <div className="flex justify-between gap-3">
          <Link to={`/login/codigo${location.search}`} className="text-sm font-medium text-primary underline-offset-4 hover:underline">
            Entrar com código
          </Link>
          <Link to="/forgot-password" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
            Esqueceu sua senha?
          </Link>
        </div>
        <Button type="submit" size="lg" loading={login.isPending} disabled={email.trim() === '' || password === ''}>
          Entrar
        </Button>
      </form>
      )}
      <PasskeyLoginButton<LoginResponse> onSignedIn={signedIn} />
      {!twoStep && providers.data?.google && (
        <>
          <div className="my-5 flex items-center gap-3 text-xs uppercase text-muted-foreground">
            <span aria-hidden="true" className="h-px flex-1 bg-border" />
            ou
            <span aria-hidden="true" className="h-px flex-1 bg-border" />
          </div>
          {/* A full navigation: the server runs the OIDC redirect dance. */}
          <a href={googleStartUrl(returnPath)} className={buttonClasses('outline', 'lg', 'w-full')}>
            <GoogleIcon />
            Entrar com Google
          </a>
        </>
      )}
    </AuthShell>
  )
}
