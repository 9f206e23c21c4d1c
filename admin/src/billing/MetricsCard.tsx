import { Alert, Box, Card, CardContent, CircularProgress, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material'
import { useQuery } from '@tanstack/react-query'
import { fetchMetrics } from './api'
import { formatMoney, monthLabel, percent, type MonthMetrics } from './types'

// Read by screen readers, not shown.
const hidden = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' } as const

/** A bar per month, as wide as its MRR against the year's highest (no chart library for twelve numbers). */
function Bar({ value, max }: { value: number; max: number }) {
  const width = max > 0 ? Math.max(2, Math.round((value / max) * 100)) : 0
  return (
    <Box aria-hidden sx={{ height: 10, width: '100%', minWidth: 80, bgcolor: 'action.hover', borderRadius: 1 }}>
      <Box sx={{ height: 10, width: `${width}%`, bgcolor: 'primary.main', borderRadius: 1 }} />
    </Box>
  )
}

export function MetricsTable({ months }: { months: MonthMetrics[] }) {
  const max = Math.max(0, ...months.map((m) => m.mrr_cents))
  const last = months[months.length - 1]
  return (
    <Stack spacing={2}>
      {last && (
        <Stack direction="row" spacing={4} useFlexGap flexWrap="wrap">
          <Box>
            <Typography variant="body2" color="text.secondary">
              MRR atual
            </Typography>
            <Typography variant="h5">{formatMoney(last.mrr_cents)}</Typography>
          </Box>
          <Box>
            <Typography variant="body2" color="text.secondary">
              Assinaturas ativas
            </Typography>
            <Typography variant="h5">{last.active}</Typography>
          </Box>
          <Box>
            <Typography variant="body2" color="text.secondary">
              Churn do mês
            </Typography>
            <Typography variant="h5">{percent(last.churn_rate)}</Typography>
          </Box>
        </Stack>
      )}
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="MRR e churn dos últimos 12 meses">
          <TableHead>
            <TableRow>
              <TableCell>Mês</TableCell>
              <TableCell align="right">MRR</TableCell>
              <TableCell sx={{ width: '30%' }}>
                <Box component="span" sx={hidden}>
                  Evolução
                </Box>
              </TableCell>
              <TableCell align="right">Ativas</TableCell>
              <TableCell align="right">Canceladas</TableCell>
              <TableCell align="right">Churn</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {months.map((m) => (
              <TableRow key={m.month}>
                <TableCell>{monthLabel(m.month)}</TableCell>
                <TableCell align="right">{formatMoney(m.mrr_cents)}</TableCell>
                <TableCell>
                  <Bar value={m.mrr_cents} max={max} />
                </TableCell>
                <TableCell align="right">{m.active}</TableCell>
                <TableCell align="right">{m.churned}</TableCell>
                <TableCell align="right">{percent(m.churn_rate)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Stack>
  )
}

/** MRR and churn of the last 12 months, above the subscriptions list. */
export function MetricsCard() {
  const metrics = useQuery({ queryKey: ['billing', 'metrics'], queryFn: fetchMetrics })
  return (
    <Card sx={{ mb: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Receita recorrente e churn (12 meses)
        </Typography>
        {metrics.isPending ? (
          <CircularProgress size={24} aria-label="Carregando métricas" />
        ) : metrics.isError ? (
          <Alert severity="error">Não foi possível carregar as métricas: {metrics.error.message}</Alert>
        ) : metrics.data.length === 0 ? (
          <Typography color="text.secondary">Nenhuma assinatura ainda.</Typography>
        ) : (
          <MetricsTable months={metrics.data} />
        )}
      </CardContent>
    </Card>
  )
}
