import { Alert, Box, Button, CardContent, Checkbox, CircularProgress, FormControlLabel, TextField } from '@mui/material'
import { useState, type FormEvent } from 'react'
import { useLogin, useTranslate } from 'react-admin'
import { TwoStepEnrolment } from '../access/TwoStepEnrolment'
import { TWO_STEP_ENROL, TWO_STEP_NEEDED } from '../providers/authProvider'

/**
 * The backoffice's sign-in: e-mail and password, then, for an account with
 * two-step verification, the authenticator's code (or a recovery code); a
 * staff account without it is walked through enrolment right here.
 */
export function BackofficeLoginForm() {
  const login = useLogin()
  const translate = useTranslate()
  const [step, setStep] = useState<'password' | 'code' | 'enrol'>('password')
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const [remember, setRemember] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    setError(null)
    setBusy(true)
    try {
      await login(step === 'code' ? { code: code.trim(), remember_device: remember } : { email: email.trim(), password })
    } catch (err: any) {
      const message: string = err?.message || translate('ra.auth.sign_in_error')
      if (message === TWO_STEP_NEEDED) setStep('code')
      else if (message === TWO_STEP_ENROL) setStep('enrol')
      else {
        setError(message)
        // The challenge is gone (expired or too many wrong codes): start over.
        if (step === 'code' && /expirou/.test(message)) setStep('password')
      }
      setCode('')
    } finally {
      setBusy(false)
    }
  }

  if (step === 'enrol') {
    return (
      <CardContent>
        <TwoStepEnrolment email={email} onDone={() => window.location.assign('/backoffice/')} />
      </CardContent>
    )
  }

  return (
    <Box component="form" onSubmit={onSubmit} noValidate>
      <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        {step === 'code' && <Alert severity="info">{TWO_STEP_NEEDED}</Alert>}
        {error && (
          <Alert severity="error" role="alert">
            {error}
          </Alert>
        )}
        {step === 'password' ? (
          <>
            <TextField label="Email" name="email" type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} autoFocus required fullWidth />
            <TextField label="Senha" name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required fullWidth />
          </>
        ) : (
          <>
            <TextField label="Código de verificação" name="code" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value)} autoFocus required fullWidth slotProps={{ htmlInput: { maxLength: 20 } }} />
            <FormControlLabel control={<Checkbox checked={remember} onChange={(e) => setRemember(e.target.checked)} />} label="Lembrar este dispositivo por 30 dias" />
          </>
        )}
        <Button type="submit" variant="contained" disabled={busy || (step === 'code' ? code.trim() === '' : email.trim() === '' || password === '')} fullWidth>
          {busy ? <CircularProgress size={19} thickness={3} /> : step === 'code' ? 'Verificar' : translate('ra.auth.sign_in')}
        </Button>
      </CardContent>
    </Box>
  )
}
