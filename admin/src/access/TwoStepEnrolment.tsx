import { Alert, Box, Button, Card, CardContent, CssBaseline, List, ListItem, Stack, TextField, ThemeProvider, Typography, createTheme, useMediaQuery } from '@mui/material'
import { useMemo, useState, type FormEvent } from 'react'
import { Logo } from '../layout/Logo'
import { darkTheme, lightTheme } from '../layout/theme'
import { httpClient } from '../providers/httpClient'

export const TWO_STEP_REQUIRED_TITLE = 'Ative a verificação em duas etapas'

type Enrolment = { secret: string; otpauth_url: string; qr_code: string }

/**
 * The staff's walk through two-step verification before the backoffice
 * opens: super admins, revisors and moderators need it. QR code, a code to
 * confirm, then the recovery codes (shown once); the session is verified by
 * the confirmation, so "Abrir o backoffice" opens it.
 */
export function TwoStepEnrolment({ email, onDone }: { email: string; onDone: () => void }) {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null)
  const [codes, setCodes] = useState<string[] | null>(null)
  const [code, setCode] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function run(fn: () => Promise<void>) {
    setError(null)
    setBusy(true)
    try {
      await fn()
    } catch (err: any) {
      setError(err?.message || 'Erro ao processar requisição. Tente novamente.')
    } finally {
      setBusy(false)
    }
  }

  const start = () =>
    run(async () => {
      const { json } = await httpClient('/api/auth/two-step/totp', { method: 'POST' })
      setEnrolment(json as Enrolment)
    })

  const confirm = (e: FormEvent) => {
    e.preventDefault()
    void run(async () => {
      const { json } = await httpClient('/api/auth/two-step/totp/confirm', { method: 'POST', body: { code: code.trim() } })
      setCodes(json.recovery_codes as string[])
    })
  }

  return (
    <Stack spacing={2} alignItems="flex-start">
      <Typography variant="h5" component="h1">
        {TWO_STEP_REQUIRED_TITLE}
      </Typography>
      {error && (
        <Alert severity="error" role="alert" sx={{ width: '100%' }}>
          {error}
        </Alert>
      )}
      {codes ? (
        <>
          <Typography role="status">
            Verificação ativada. Guarde estes códigos de recuperação em um lugar seguro: cada um funciona uma única vez
            e eles não serão mostrados novamente.
          </Typography>
          <List aria-label="Códigos de recuperação" dense sx={{ columns: 2, fontFamily: 'monospace', width: '100%' }}>
            {codes.map((c) => (
              <ListItem key={c}>{c}</ListItem>
            ))}
          </List>
          <Button variant="contained" onClick={onDone}>
            Abrir o backoffice
          </Button>
        </>
      ) : enrolment ? (
        <Box component="form" onSubmit={confirm} noValidate sx={{ display: 'flex', flexDirection: 'column', gap: 2, width: '100%' }}>
          <Typography>1. Escaneie o QR code com seu aplicativo autenticador.</Typography>
          <img src={enrolment.qr_code} alt="QR code para o aplicativo autenticador" width={200} height={200} />
          <Typography>
            Ou digite a chave: <code data-testid="totp-secret">{enrolment.secret}</code>
          </Typography>
          <TextField
            label="Código do aplicativo"
            name="code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="one-time-code"
            slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 6 } }}
          />
          <Button type="submit" variant="contained" disabled={busy || code.trim().length !== 6}>
            Confirmar e ativar
          </Button>
        </Box>
      ) : (
        <>
          <Typography color="text.secondary">
            Sua conta ({email}) tem uma função da equipe: o backoffice só abre depois da verificação em duas etapas,
            com um código de um aplicativo autenticador (Google Authenticator, Authy, 1Password...).
          </Typography>
          <Button variant="contained" onClick={start} disabled={busy}>
            Começar
          </Button>
        </>
      )}
    </Stack>
  )
}

/** TwoStepEnrolment on its own page (someone already signed in with a pending staff role). */
export function TwoStepEnrolmentPage(props: { email: string; onDone: () => void }) {
  const dark = useMediaQuery('(prefers-color-scheme: dark)')
  const theme = useMemo(() => createTheme(dark ? darkTheme : lightTheme), [dark])
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Box component="main" sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center', p: 2 }}>
        <Card sx={{ maxWidth: 520, width: '100%' }}>
          <CardContent>
            <Stack spacing={2}>
              <Logo size={40} />
              <TwoStepEnrolment {...props} />
            </Stack>
          </CardContent>
        </Card>
      </Box>
    </ThemeProvider>
  )
}
