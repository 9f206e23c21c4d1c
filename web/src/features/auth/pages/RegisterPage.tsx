import { useEffect, useState, type FormEvent } from 'react'
import { Link, Navigate, useLocation } from 'react-router'
import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { toast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api'
import { useAuth } from '@/lib/session/AuthProvider'
import { useSignup } from '../api'
import { AuthShell, FormMessage } from '../components/AuthShell'
import { NewPasswordField } from '../components/PasswordField'
import { signupErrorMessage } from '../loginMessages'
import { passwordError } from '../passwordRules'
import { captureReferralCode, clearReferralCode, deviceId } from '../referral'

type Fields = { first_name: string; last_name: string; email: string; password: string }
type FieldErrors = Partial<Record<keyof Fields, string>>

const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/**
 * /register, and /register-premium (premium): the same form, whose sign-up
 * asks for a confirmation link that signs in and continues to the monthly
 * checkout.
 */
export default function RegisterPage({ premium = false }: { premium?: boolean }) {
  const { isAuthenticated, loading } = useAuth()
  const location = useLocation()
  const signup = useSignup()
  const [referralCode, setReferralCode] = useState<string | null>(null)
  const [form, setForm] = useState<Fields>({ first_name: '', last_name: '', email: '', password: '' })
  const [errors, setErrors] = useState<FieldErrors>({})
  const [formError, setFormError] = useState<string | null>(null)
  const [done, setDone] = useState<string | null>(null)

  useEffect(() => {
    setReferralCode(captureReferralCode(location.search))
  }, [location.search])

  if (!loading && isAuthenticated && !done) return <Navigate to={premium ? '/pricing' : '/'} replace />

  const set = (field: keyof Fields) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }))
    setErrors((e) => ({ ...e, [field]: undefined }))
  }

  function validate(): FieldErrors {
    const next: FieldErrors = {}
    if (form.first_name.trim() === '') next.first_name = 'Informe seu nome.'
    if (form.last_name.trim() === '') next.last_name = 'Informe seu sobrenome.'
    if (!emailShape.test(form.email.trim())) next.email = 'Informe um email válido.'
    // The password validator shared with the server runs first; an invalid password stops sign-up.
    const password = passwordError(form.password, form.email)
    if (password) next.password = password
    return next
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setFormError(null)
    const found = validate()
    setErrors(found)
    if (Object.keys(found).length > 0) return
    try {
      const res = await signup.mutateAsync({
        first_name: form.first_name.trim(),
        last_name: form.last_name.trim(),
        email: form.email.trim(),
        password: form.password,
        ...(referralCode ? { referral_code: referralCode, device_id: deviceId() } : {}),
        ...(premium ? { intent: 'premium_monthly' as const } : {}),
      })
      if (referralCode) clearReferralCode()
      setDone(res.message)
      toast.success(res.message)
    } catch (err) {
      if (err instanceof ApiError && Object.keys(err.fields).length > 0) {
        setErrors(err.fields as FieldErrors)
      }
      const message = signupErrorMessage(err)
      setFormError(message)
      toast.error(message)
    }
  }

  if (done) {
    return (
      <AuthShell title="Verifique seu email">
        <div className="flex flex-col gap-4">
          <FormMessage kind="success">{done}</FormMessage>
          <p className="text-sm text-muted-foreground">
            Enviamos um link de confirmação para <strong className="text-foreground">{form.email.trim()}</strong>. Abra o
            email e clique no link para ativar sua conta.
          </p>
          {premium && <p className="text-sm text-muted-foreground">Ao confirmar, você entra e segue direto para o pagamento do Premium mensal.</p>}
          <Link to="/login" className="text-center text-sm font-semibold text-primary underline-offset-4 hover:underline">
            Ir para o login
          </Link>
        </div>
      </AuthShell>
    )
  }

  return (
    <AuthShell
      title={premium ? 'Criar conta Premium' : 'Criar conta'}
      description={premium ? 'Crie sua conta e assine o Premium: pacientes ilimitados, todos os desafios, consultas à IA sem o limite do teste, todos os cursos e certificados.' : 'Junte-se à comunidade de profissionais da veterinária'}
      footer={
        <>
          Já tem uma conta?{' '}
          <Link to="/login" className="font-semibold text-primary underline-offset-4 hover:underline">
            Entrar
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        {formError && <FormMessage kind="error">{formError}</FormMessage>}
        <div className="grid gap-4 sm:grid-cols-2">
          <Input
            label="Nome"
            name="first_name"
            autoComplete="given-name"
            value={form.first_name}
            onChange={(e) => set('first_name')(e.target.value)}
            error={errors.first_name}
            required
          />
          <Input
            label="Sobrenome"
            name="last_name"
            autoComplete="family-name"
            value={form.last_name}
            onChange={(e) => set('last_name')(e.target.value)}
            error={errors.last_name}
            required
          />
        </div>
        <Input
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={form.email}
          onChange={(e) => set('email')(e.target.value)}
          error={errors.email}
          required
        />
        <NewPasswordField value={form.password} onChange={set('password')} email={form.email} error={errors.password} />
        {referralCode && (
          <p className="text-sm text-muted-foreground">
            Código de indicação: <strong className="text-foreground">{referralCode}</strong>
          </p>
        )}
        <Button type="submit" size="lg" loading={signup.isPending}>
          {premium ? 'Criar conta e assinar' : 'Criar conta'}
        </Button>
      </form>
    </AuthShell>
  )
}
