import { useEffect, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { buttonClasses } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { ApiError, apiFetch } from '@/lib/api'
import { AuthShell } from '../components/AuthShell'

/** Spends an e-mail-change link (confirm at the new address, undo at the old one) once and shows the outcome. */
export function EmailLinkPage({ kind }: { kind: 'confirm' | 'undo' }) {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(
    token === '' ? { ok: false, message: 'Link inválido.' } : null,
  )
  const sent = useRef(false)
  useEffect(() => {
    if (token === '' || sent.current) return
    sent.current = true
    apiFetch<{ message: string }>(`/api/auth/email/${kind}`, { method: 'POST', body: { token }, noRefresh: true })
      .then((r) => setResult({ ok: true, message: r.message }))
      .catch((err: unknown) => setResult({ ok: false, message: err instanceof ApiError ? err.message : 'Erro ao processar requisição. Tente novamente.' }))
  }, [kind, token])
  const title = kind === 'confirm' ? 'Confirmar novo e-mail' : 'Desfazer troca de e-mail'
  return (
    <AuthShell title={title}>
      {!result ? (
        <Spinner />
      ) : (
        <div className="flex flex-col gap-4">
          <p role={result.ok ? 'status' : 'alert'} className={result.ok ? 'text-sm font-medium' : 'text-sm text-destructive'}>
            {result.message}
          </p>
          {kind === 'undo' && result.ok ? (
            <Link to="/login" className={buttonClasses('primary', 'lg', 'w-full')}>
              Ir para o login
            </Link>
          ) : (
            <Link to="/profile#seguranca" className={buttonClasses('outline', 'lg', 'w-full')}>
              Ir para o perfil
            </Link>
          )}
        </div>
      )}
    </AuthShell>
  )
}

