import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { toast } from '@/components/ui/toast'
import { useForgotPassword } from '../api'
import { AuthShell, FormMessage } from '../components/AuthShell'

export const RESET_SENT_MESSAGE = 'Email de recuperação enviado!'
export const RESET_FAILED_MESSAGE = 'Erro ao enviar email de recuperação'

export default function ForgotPasswordPage() {
  const forgot = useForgotPassword()
  const [email, setEmail] = useState('')
  const [result, setResult] = useState<{ kind: 'error' | 'success'; text: string } | null>(null)

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setResult(null)
    try {
      const res = await forgot.mutateAsync(email.trim())
      const text = res.message || RESET_SENT_MESSAGE
      setResult({ kind: 'success', text })
      toast.success(text)
    } catch {
      setResult({ kind: 'error', text: RESET_FAILED_MESSAGE })
      toast.error(RESET_FAILED_MESSAGE)
    }
  }

  return (
    <AuthShell
      title="Recuperar senha"
      description="Informe o email da sua conta e enviaremos um link para criar uma nova senha."
      footer={
        <Link to="/login" className="font-semibold text-primary underline-offset-4 hover:underline">
          Voltar para o login
        </Link>
      }
    >
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        {result && <FormMessage kind={result.kind}>{result.text}</FormMessage>}
        <Input
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          inputMode="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
        <Button type="submit" size="lg" loading={forgot.isPending} disabled={email.trim() === ''}>
          Enviar link de recuperação
        </Button>
      </form>
    </AuthShell>
  )
}
