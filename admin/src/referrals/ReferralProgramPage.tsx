import { useEffect, useState } from 'react'
import { Box, Button, Card, CardContent, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Title, useNotify } from 'react-admin'
import { programSettings, programStats, saveProgramSettings } from './data'
import { SETTINGS_FIELDS, type ProgramSettings } from './types'

/** The program's numbers by week (clicks → sign-ups → paid → rewarded), top referrers and the settings. */
export default function ReferralProgramPage() {
  const stats = useQuery({ queryKey: ['referral-stats'], queryFn: programStats })
  return (
    <Stack spacing={2} sx={{ my: 2 }}>
      <Title title="Indicações: números e configurações" />
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2">
            Funil por semana
          </Typography>
          {stats.isError && <Typography color="error">Não foi possível carregar os números.</Typography>}
          {stats.data && (
            <>
              <Typography variant="body2" color="text.secondary">
                Em análise agora: {stats.data.flagged}
              </Typography>
              <Table size="small" aria-label="Funil por semana">
                <TableHead>
                  <TableRow>
                    <TableCell>Semana de</TableCell>
                    <TableCell align="right">Cliques</TableCell>
                    <TableCell align="right">Cadastros</TableCell>
                    <TableCell align="right">Pagos</TableCell>
                    <TableCell align="right">Recompensados</TableCell>
                  </TableRow>
                </TableHead>
                <TableBody>
                  {stats.data.weeks.map((w) => (
                    <TableRow key={w.week}>
                      <TableCell>{w.week.split('-').reverse().join('/')}</TableCell>
                      <TableCell align="right">{w.clicks}</TableCell>
                      <TableCell align="right">{w.signups}</TableCell>
                      <TableCell align="right">{w.paid}</TableCell>
                      <TableCell align="right">{w.rewarded}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardContent>
          <Typography variant="h6" component="h2">
            Quem mais indica
          </Typography>
          {stats.data && stats.data.top_referrers.length === 0 && <Typography color="text.secondary">Nenhuma indicação ainda.</Typography>}
          {stats.data && stats.data.top_referrers.length > 0 && (
            <Table size="small" aria-label="Quem mais indica">
              <TableHead>
                <TableRow>
                  <TableCell>Membro</TableCell>
                  <TableCell align="right">Cadastros</TableCell>
                  <TableCell align="right">Recompensados</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {stats.data.top_referrers.map((t) => (
                  <TableRow key={t.user_id}>
                    <TableCell>{t.email}</TableCell>
                    <TableCell align="right">{t.signups}</TableCell>
                    <TableCell align="right">{t.rewarded}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
      <SettingsCard />
    </Stack>
  )
}

export function SettingsCard() {
  const notify = useNotify()
  const client = useQueryClient()
  const current = useQuery({ queryKey: ['referral-settings'], queryFn: programSettings })
  const [form, setForm] = useState<Record<keyof ProgramSettings, string> | null>(null)
  const [errors, setErrors] = useState<Record<string, string>>({})
  useEffect(() => {
    if (current.data && !form) {
      setForm(Object.fromEntries(SETTINGS_FIELDS.map((f) => [f.key, String(current.data[f.key])])) as Record<keyof ProgramSettings, string>)
    }
  }, [current.data, form])
  const save = useMutation({
    mutationFn: () => saveProgramSettings(Object.fromEntries(SETTINGS_FIELDS.map((f) => [f.key, Number(form![f.key])])) as unknown as ProgramSettings),
    onSuccess: (data) => {
      client.setQueryData(['referral-settings'], data)
      setErrors({})
      notify('Configurações salvas.', { type: 'success' })
    },
    onError: (error: Error & { body?: { error?: { fields?: Record<string, string> } } }) => {
      setErrors(error.body?.error?.fields ?? {})
      notify(error.message, { type: 'error' })
    },
  })
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2">
          Configurações
        </Typography>
        {current.isError && <Typography color="error">Não foi possível carregar as configurações.</Typography>}
        {form && (
          <Box
            component="form"
            aria-label="Configurações do programa"
            onSubmit={(e) => {
              e.preventDefault()
              save.mutate()
            }}
            sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, mt: 1 }}
          >
            {SETTINGS_FIELDS.map((f) => (
              <TextField
                key={f.key}
                label={f.label}
                type="number"
                value={form[f.key]}
                onChange={(e) => setForm({ ...form, [f.key]: e.target.value })}
                error={!!errors[f.key]}
                helperText={errors[f.key] ?? f.help}
                inputProps={{ 'aria-label': f.label }}
              />
            ))}
            <Box>
              <Button type="submit" variant="contained" disabled={save.isPending}>
                Salvar
              </Button>
            </Box>
          </Box>
        )}
      </CardContent>
    </Card>
  )
}
