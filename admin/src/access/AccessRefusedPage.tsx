import { Box, Button, Card, CardContent, CssBaseline, Stack, ThemeProvider, Typography, createTheme, useMediaQuery } from '@mui/material'
import { useMemo } from 'react'
import { Logo } from '../layout/Logo'
import { darkTheme, lightTheme } from '../layout/theme'
import { ACCESS_REFUSED } from '../providers/authProvider'

/**
 * What an app user without a backoffice role sees at /backoffice/: the
 * refusal and a way back, while their VetClube session stays as it was.
 * Only "Sair e entrar com outra conta" ends it, because they asked.
 */
export function AccessRefusedPage({ email, onOtherAccount }: { email: string; onOtherAccount: () => void }) {
  const dark = useMediaQuery('(prefers-color-scheme: dark)')
  const theme = useMemo(() => createTheme(dark ? darkTheme : lightTheme), [dark])
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Box component="main" sx={{ minHeight: '100dvh', display: 'grid', placeItems: 'center', p: 2 }}>
        <Card sx={{ maxWidth: 480, width: '100%' }}>
          <CardContent>
            <Stack spacing={2} alignItems="flex-start">
              <Logo size={40} />
              <Typography variant="h5" component="h1">
                {ACCESS_REFUSED}
              </Typography>
              <Typography color="text.secondary">
                Você entrou no VetClube como {email}. Essa conta continua conectada ao aplicativo; o backoffice é
                para quem edita, revisa ou administra o conteúdo.
              </Typography>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ width: '100%' }}>
                <Button variant="contained" href="/">
                  Voltar para o VetClube
                </Button>
                <Button variant="outlined" onClick={onOtherAccount}>
                  Sair e entrar com outra conta
                </Button>
              </Stack>
            </Stack>
          </CardContent>
        </Card>
      </Box>
    </ThemeProvider>
  )
}
