import { useState } from 'react'
import { Box, Button, Chip, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import { useMutation, useQuery } from '@tanstack/react-query'
import { Confirm, Datagrid, DateField, FunctionField, List, SelectInput, TextField, useNotify, useRecordContext, useRefresh } from 'react-admin'
import { Link as RouterLink } from 'react-router-dom'
import { formatSaoPaulo } from '../content/time'
import { referralDetail, reviewReferral } from './data'
import { EVENT_TEXT, VERDICT_CHOICES, VERDICT_TEXT, type ReferralRow, type Verdict } from './types'

const VERDICT_COLOUR: Record<Verdict, 'warning' | 'success' | 'error'> = { flagged: 'warning', approved: 'success', rejected: 'error' }

function VerdictChip() {
  const r = useRecordContext<ReferralRow>()
  if (!r) return null
  return <Chip size="small" color={VERDICT_COLOUR[r.verdict]} label={VERDICT_TEXT[r.verdict]} />
}

/** Aprovar / Reprovar a flagged referral, each with a note (required to reject); the decision is audited on its timeline. */
export function ReviewButtons() {
  const r = useRecordContext<ReferralRow>()
  const notify = useNotify()
  const refresh = useRefresh()
  const [asked, setAsked] = useState<'approve' | 'reject' | null>(null)
  const [note, setNote] = useState('')
  const { mutate, isPending } = useMutation({
    mutationFn: (decision: 'approve' | 'reject') => reviewReferral(r!.id, decision, note),
    onSuccess: (_d, decision) => {
      notify(decision === 'approve' ? 'Indicação aprovada.' : 'Indicação reprovada.', { type: 'success' })
      refresh()
      setAsked(null)
      setNote('')
    },
    onError: (error: Error) => notify(error.message, { type: 'error' }),
  })
  if (!r || r.verdict !== 'flagged') return null
  return (
    <Stack direction="row" spacing={1} onClick={(e) => e.stopPropagation()}>
      <Button size="small" variant="contained" disabled={isPending} onClick={() => setAsked('approve')}>
        Aprovar
      </Button>
      <Button size="small" variant="outlined" color="error" disabled={isPending} onClick={() => setAsked('reject')}>
        Reprovar
      </Button>
      <Confirm
        isOpen={asked !== null}
        loading={isPending}
        title={asked === 'approve' ? 'Aprovar esta indicação?' : 'Reprovar esta indicação?'}
        content={
          <Box>
            <Typography sx={{ mb: 2 }}>
              {asked === 'approve'
                ? 'A recompensa segue o fluxo normal (carência e limites).'
                : 'Quem indicou verá o motivo. A observação fica registrada na auditoria.'}
            </Typography>
            <MuiTextField
              label={asked === 'reject' ? 'Observação (obrigatória)' : 'Observação'}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              fullWidth
              multiline
              inputProps={{ maxLength: 1000 }}
            />
          </Box>
        }
        confirm={asked === 'approve' ? 'Aprovar' : 'Reprovar'}
        onConfirm={() => asked && mutate(asked)}
        onClose={() => setAsked(null)}
      />
    </Stack>
  )
}

/** The opened row: the evidence (matches, IP, devices) and the timeline. */
export function ReferralDetails() {
  const r = useRecordContext<ReferralRow>()
  const { data, isError } = useQuery({ queryKey: ['referral', r?.id], queryFn: () => referralDetail(r!.id), enabled: !!r })
  if (!r) return null
  if (isError) return <Typography color="error">Não foi possível carregar a indicação.</Typography>
  if (!data) return <Typography color="text.secondary">Carregando…</Typography>
  return (
    <Stack spacing={2} sx={{ py: 1 }} data-testid="referral-details">
      <Box>
        <Typography variant="subtitle2" component="h3">
          Motivos
        </Typography>
        <Typography variant="body2">{data.reasons_text || 'Nenhum alerta.'}</Typography>
      </Box>
      <Box>
        <Typography variant="subtitle2" component="h3">
          Evidências
        </Typography>
        <Typography variant="body2">
          IP do cadastro: {data.signup_ip || '—'} · Dispositivo: {data.device_id || '—'}
        </Typography>
        <Typography variant="body2">Contas no mesmo dispositivo: {data.same_device_accounts.join(', ') || 'nenhuma'}</Typography>
        <Typography variant="body2">Indicações do mesmo IP: {data.same_ip_referrals.join(', ') || 'nenhuma'}</Typography>
        <Typography variant="body2" component="pre" sx={{ whiteSpace: 'pre-wrap', fontFamily: 'monospace', fontSize: 12 }}>
          {JSON.stringify(data.evidence, null, 2)}
        </Typography>
      </Box>
      <Box>
        <Typography variant="subtitle2" component="h3">
          Linha do tempo
        </Typography>
        {data.timeline.map((e, i) => (
          <Typography key={i} variant="body2">
            {formatSaoPaulo(e.at)} · {EVENT_TEXT[e.type] ?? e.type}
            {e.type === 'review' ? ` · ${e.detail.decision === 'approved' ? 'aprovada' : 'reprovada'}${e.detail.note ? ` · ${String(e.detail.note)}` : ''}` : ''}
          </Typography>
        ))}
      </Box>
    </Stack>
  )
}

/**
 * Indicações: every referral, the review queue (Em análise) first by
 * default, each with its evidence, timeline and the review decision.
 */
export default function ReferralList() {
  const filters = [
    <SelectInput key="verdict" source="verdict" label="Análise" choices={VERDICT_CHOICES} translateChoice={false} alwaysOn emptyText="Todas" />,
  ]
  return (
    <List
      title="Indicações"
      filters={filters}
      filterDefaultValues={{ verdict: 'flagged' }}
      sort={{ field: 'created_at', order: 'DESC' }}
      perPage={25}
      exporter={false}
      empty={false}
      actions={
        <Button component={RouterLink} to="/referral-program" size="small">
          Números e configurações
        </Button>
      }
    >
      <Datagrid bulkActionButtons={false} rowClick="expand" expand={<ReferralDetails />}>
        <TextField source="referrer_email" label="Quem indicou" sortable={false} />
        <TextField source="referee_email" label="Indicado" sortable={false} />
        <FunctionField<ReferralRow> label="Situação" sortable={false} render={(r) => r.state_text} />
        <FunctionField<ReferralRow> label="Análise" sortable={false} render={() => <VerdictChip />} />
        <FunctionField<ReferralRow> label="Motivos" sortable={false} render={(r) => r.reasons_text} />
        <DateField source="created_at" label="Cadastro" showTime locales="pt-BR" />
        <FunctionField<ReferralRow> label="Ações" sortable={false} render={() => <ReviewButtons />} />
      </Datagrid>
    </List>
  )
}
