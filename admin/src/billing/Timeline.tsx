import { Alert, Box, Chip, CircularProgress, List, ListItem, ListItemText, Typography } from '@mui/material'
import { useQuery } from '@tanstack/react-query'
import { useRecordContext } from 'react-admin'
import { formatSaoPaulo } from '../content/time'
import { fetchTimeline } from './api'
import type { AdminSubscription, TimelineEntry } from './types'

const SOURCE_LABEL: Record<TimelineEntry['source'], string> = { stripe: 'Stripe', entitlement: 'Acesso' }

export function TimelineList({ entries }: { entries: TimelineEntry[] }) {
  if (entries.length === 0) return <Typography color="text.secondary">Nada registrado ainda.</Typography>
  return (
    <List dense aria-label="Linha do tempo da assinatura">
      {entries.map((e, i) => (
        <ListItem key={`${e.at}-${i}`} disableGutters>
          <Chip size="small" label={SOURCE_LABEL[e.source] ?? e.source} color={e.source === 'stripe' ? 'primary' : 'secondary'} sx={{ mr: 1, minWidth: 72 }} />
          <ListItemText primary={`${e.type}${e.detail ? ` — ${e.detail}` : ''}`} secondary={formatSaoPaulo(e.at)} />
        </ListItem>
      ))}
    </List>
  )
}

/** A member's timeline (Stripe events and entitlement changes), in the row opened in the list. */
export function SubscriptionTimeline() {
  const row = useRecordContext<AdminSubscription>()
  const userId = row?.user_id ?? ''
  const timeline = useQuery({ queryKey: ['billing', 'timeline', userId], queryFn: () => fetchTimeline(userId), enabled: userId !== '' })
  return (
    <Box sx={{ px: 2, py: 1 }}>
      <Typography variant="subtitle2" component="h3">
        Linha do tempo de {row?.email}
      </Typography>
      {timeline.isPending ? (
        <CircularProgress size={20} aria-label="Carregando linha do tempo" />
      ) : timeline.isError ? (
        <Alert severity="error">{timeline.error.message}</Alert>
      ) : (
        <TimelineList entries={timeline.data} />
      )}
    </Box>
  )
}
