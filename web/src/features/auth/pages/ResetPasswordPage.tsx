import { useState, type FormEvent } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { toast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api'
import { useResetPassword } from '../api'
import { AuthShell, FormMessage } from '../components/AuthShell'
import { NewPasswordField } from '../components/PasswordField'
import { passwordError } from '../passwordRules'

export default function ResetPasswordPage() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const navigate = useNavigate()
  const reset = useResetPassword()
  const [password, setPassword] = useState('')
  const [confirmation, setConfirmation] = useState('')
  const [errors, setErrors] = useState<{ password?: string; confirmation?: string }>({})
  const [formError, setFormError] = useState<string | null>(null)

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setFormError(null)
    // The email is unknown here; the server also checks the email rule.
    const invalid = passwordError(password)
    const next = {
      password: invalid ?? undefined,
      confirmation: confirmation !== password ? 'As senhas não coincidem.' : undefined,
    }
    setErrors(next)
    if (next.password || next.confirmation) return
    try {
      const res = await reset.mutateAsync({ token, password })
      toast.success(res.message)
      navigate('/login', { replace: true })
    } catch (err) {
      const message = err instanceof ApiError && err.status < 500 && err.status > 0 ? err.message : 'Erro ao processar requisição. Tente novamente.'
      if (err instanceof ApiError && err.fields.password) setErrors({ password: err.fields.password })
      else setFormError(message)
    }
  }

  if (token === '') {
    return (
      <AuthShell title="Redefinir senha">
        <div className="flex flex-col gap-4">
          <FormMessage kind="error">Link de recuperação inválido ou expirado.</FormMessage>
          <Link to="/forgot-password" className="text-center text-sm font-semibold text-primary underline-offset-4 hover:underline">
            Pedir um novo link
          </Link>
        </div>
      </AuthShell>
    )
  }

  return (
    <AuthShell
      title="Redefinir senha"
      description="Escolha uma nova senha para a sua conta."
      footer={
        <Link to="/login" className="font-semibold text-primary underline-offset-4 hover:underline">
          Voltar para o login
        </Link>
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        {formError && (
          <FormMessage kind="error">
            {formError}{' '}
            <Link to="/forgot-password" className="underline">
              Pedir um novo link
            </Link>
          </FormMessage>
        )}
        <NewPasswordField label="Nova senha" value={password} onChange={setPassword} email="" error={errors.password} />
        <Input
          label="Confirmar nova senha"
          name="password_confirmation"
          type="password"
          autoComplete="new-password"
          value={confirmation}
          onChange={(e) => setConfirmation(e.target.value)}
          error={errors.confirmation}
          required
        />
        <Button type="submit" size="lg" loading={reset.isPending}>
          Redefinir senha
        </Button>
      </form>
    </AuthShell>
  )
}
