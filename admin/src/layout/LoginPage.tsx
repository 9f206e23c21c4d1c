import { Box, Card, CardActions, Link, Stack, Typography } from '@mui/material'
import { useTranslate } from 'react-admin'
import { BackofficeLoginForm } from './BackofficeLoginForm'
import { Logo } from './Logo'

/**
 * The backoffice's sign-in: VetClube's mark and name as the page's heading,
 * inside a main landmark, and the way to the PWA's password reset.
 */
export function LoginPage() {
  const translate = useTranslate()
  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 3,
        p: 2,
        bgcolor: 'background.default',
      }}
    >
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center' }}>
        <Logo size={44} />
        <Typography component="h1" variant="h5" sx={{ fontWeight: 700 }}>
          {translate('vetclube.login.title')}
        </Typography>
      </Stack>
      <Card sx={{ width: '100%', maxWidth: 380 }}>
        <BackofficeLoginForm />
        <CardActions sx={{ justifyContent: 'center', pb: 2 }}>
          {/* The PWA's reset flow: the link by e-mail opens /redefinir-senha there. */}
          <Link href="/forgot-password">{translate('vetclube.login.forgot_password')}</Link>
        </CardActions>
      </Card>
    </Box>
  )
}
