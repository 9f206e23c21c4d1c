import { useEffect, useRef, useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { CircleAlert, CircleCheck } from 'lucide-react'
import { buttonClasses } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api'
import { useAuth } from '@/lib/session/AuthProvider'
import { checkoutFailure, goToCheckout } from '@/features/subscription'
import { useConfirmEmail } from '../api'
import { AuthShell } from '../components/AuthShell'

const INVALID_LINK = 'Link de confirmação inválido ou expirado.'

/** Where the confirmation email lands: spends the single-use token once, shows the outcome. */
export default function ConfirmEmailPage() {
  const [params] = useSearchParams()
  const token = params.get('token') ?? ''
  // From /register-premium: the link signed in, and the monthly checkout follows.
  const toCheckout = params.get('continuar') === 'assinatura'
  const { refresh } = useAuth()
  const confirm = useConfirmEmail()
  const [checkout, setCheckout] = useState<'going' | string | null>(null)
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(
    token === '' ? { ok: false, message: INVALID_LINK } : null,
  )
  // StrictMode runs effects twice in development; the token is single-use.
  const sent = useRef(false)

  useEffect(() => {
    if (token === '' || sent.current) return
    sent.current = true
    confirm
      .mutateAsync(token)
      .then(async (res) => {
        setResult({ ok: true, message: res.message })
        if (!res.signed_in) return
        await refresh()
        if (!toCheckout) return
        setCheckout('going')
        await goToCheckout({ billing_cycle: 'monthly' }).catch((err: unknown) => setCheckout(checkoutFailure(err).message))
      })
      .catch((err: unknown) =>
        setResult({
          ok: false,
          message: err instanceof ApiError && err.status > 0 && err.status < 500 ? err.message : 'Erro ao processar requisição. Tente novamente.',
        }),
      )
  }, [token, confirm, refresh, toCheckout])

  return (
    <AuthShell title="Confirmação de email">
      <div className="flex flex-col items-center gap-5 text-center">
        {!result ? (
          <Spinner label="Confirmando seu email..." />
        ) : (
          <>
            <div role={result.ok ? 'status' : 'alert'} className="flex flex-col items-center gap-3">
              {result.ok ? (
                <CircleCheck aria-hidden="true" className="h-12 w-12 text-green-700 dark:text-green-400" />
              ) : (
                <CircleAlert aria-hidden="true" className="h-12 w-12 text-destructive" />
              )}
              <p className="font-medium">{result.message}</p>
            </div>
            {checkout === 'going' ? (
              <Spinner label="Levando você ao pagamento do Premium..." />
            ) : checkout ? (
              <>
                <p role="alert" className="text-sm">
                  {checkout}
                </p>
                <Link to="/pricing" className={buttonClasses('primary', 'lg', 'w-full')}>
                  Ver Planos
                </Link>
              </>
            ) : confirm.data?.signed_in ? (
              <Link to="/" className={buttonClasses('primary', 'lg', 'w-full')}>
                Ir para o início
              </Link>
            ) : (
              <Link to="/login" className={buttonClasses('primary', 'lg', 'w-full')}>
                Ir para o login
              </Link>
            )}
          </>
        )}
      </div>
    </AuthShell>
  )
}
