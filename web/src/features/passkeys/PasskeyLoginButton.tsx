import { useState } from 'react'
import { Button } from '@/components/ui/Button'
import { ApiError } from '@/lib/api'
import { signInWithPasskey } from './api'
import { ceremonyErrorMessage, passkeysSupported } from './webauthn'

/** 'Entrar com passkey': no e-mail or password; the passkey is also the second step. */
export function PasskeyLoginButton<T>({ onSignedIn }: { onSignedIn: (res: T) => void }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  if (!passkeysSupported()) return null

  async function onClick() {
    setError(null)
    setBusy(true)
    try {
      onSignedIn((await signInWithPasskey()) as T)
    } catch (err) {
      setError(err instanceof ApiError ? err.message : ceremonyErrorMessage(err))
    } finally {
      setBusy(false)
    }
  }

  return (
    <div className="mt-4 flex flex-col gap-2">
      <Button type="button" variant="outline" size="lg" className="w-full" loading={busy} onClick={onClick}>
        Entrar com passkey
      </Button>
      {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
    </div>
  )
}
