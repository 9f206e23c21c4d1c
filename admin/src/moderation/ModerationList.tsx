import { useState } from 'react'
import { Box, Button, Chip, Link, Stack, TextField as MuiTextField, Typography, useMediaQuery, type Theme } from '@mui/material'
import { useMutation } from '@tanstack/react-query'
import {
  Confirm,
  Datagrid,
  DateField,
  FunctionField,
  List,
  SelectInput,
  SimpleList,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin'
import type { BackofficeDataProvider } from '../providers/dataProvider'
import { formatSaoPaulo } from '../content/time'
import { actionsFor, personName, STATE_CHOICES, TYPE_CHOICES, type ModerationAction, type ModerationRow, type ModerationState } from './types'

const STATE_LABEL: Record<ModerationState, string> = {
  publicado: 'vetclube.moderation.state_publicado',
  oculto: 'vetclube.moderation.state_oculto',
  removido: 'vetclube.moderation.state_removido',
}
const STATE_COLOUR: Record<ModerationState, 'success' | 'warning' | 'error'> = { publicado: 'success', oculto: 'warning', removido: 'error' }
const ACTION_LABEL: Record<ModerationAction, string> = {
  hide: 'vetclube.moderation.hide',
  restore: 'vetclube.moderation.restore',
  remove: 'vetclube.moderation.remove',
}
const CONFIRM_TITLE: Record<ModerationAction, string> = {
  hide: 'vetclube.moderation.confirm_hide',
  restore: 'vetclube.moderation.confirm_restore',
  remove: 'vetclube.moderation.confirm_remove',
}
const DONE: Record<ModerationAction, string> = {
  hide: 'vetclube.moderation.hidden',
  restore: 'vetclube.moderation.restored',
  remove: 'vetclube.moderation.removed',
}

function StateChip() {
  const row = useRecordContext<ModerationRow>()
  const translate = useTranslate()
  if (!row) return null
  return <Chip size="small" color={STATE_COLOUR[row.state]} label={translate(STATE_LABEL[row.state])} />
}

/**
 * Ocultar / Restaurar / Remover, as the state allows; each asks for
 * confirmation with an optional reason the author is told.
 */
export function ModerationButtons() {
  const row = useRecordContext<ModerationRow>()
  const dataProvider = useDataProvider<BackofficeDataProvider>()
  const notify = useNotify()
  const refresh = useRefresh()
  const translate = useTranslate()
  const [asked, setAsked] = useState<ModerationAction | null>(null)
  const [reason, setReason] = useState('')
  const { mutate, isPending } = useMutation({
    mutationFn: (action: ModerationAction) => dataProvider.moderate(row!, action, reason),
    onSuccess: (_data, action) => {
      notify(DONE[action], { type: 'success' })
      refresh()
    },
    onError: (error: Error) => notify(error.message, { type: 'error' }),
    onSettled: () => {
      setAsked(null)
      setReason('')
    },
  })
  if (!row) return null
  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" onClick={(e) => e.stopPropagation()}>
      {actionsFor(row.state).map((action) => (
        <Button
          key={action}
          size="small"
          variant={action === 'remove' ? 'outlined' : 'contained'}
          color={action === 'remove' ? 'error' : action === 'hide' ? 'warning' : 'primary'}
          disabled={isPending}
          onClick={() => setAsked(action)}
        >
          {translate(ACTION_LABEL[action])}
        </Button>
      ))}
      <Confirm
        isOpen={asked !== null}
        loading={isPending}
        title={asked ? translate(CONFIRM_TITLE[asked]) : ''}
        content={
          <Box>
            <Typography sx={{ mb: 2 }}>{translate('vetclube.moderation.confirm_help')}</Typography>
            <MuiTextField
              label={translate('vetclube.moderation.reason')}
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              fullWidth
              multiline
              inputProps={{ maxLength: 1000 }}
            />
          </Box>
        }
        confirm={asked ? ACTION_LABEL[asked] : 'ra.action.confirm'}
        onConfirm={() => asked && mutate(asked)}
        onClose={() => setAsked(null)}
      />
    </Stack>
  )
}

/** The row opened: reports, the author's history and the decisions so far. */
export function ModerationDetails() {
  const row = useRecordContext<ModerationRow>()
  const translate = useTranslate()
  if (!row) return null
  const h = row.author_history
  return (
    <Stack spacing={2} sx={{ py: 1 }} data-testid="moderation-details">
      <Typography sx={{ whiteSpace: 'pre-wrap' }}>{row.excerpt}</Typography>
      {row.link && (
        <Link href={row.link} target="_blank" rel="noopener">
          {translate('vetclube.moderation.open_in_app')}
        </Link>
      )}
      <Box>
        <Typography variant="subtitle2" component="h3">
          {translate('vetclube.moderation.reports')} ({row.report_count})
        </Typography>
        {row.reports.length === 0 ? (
          <Typography color="text.secondary">{translate('vetclube.moderation.no_reports')}</Typography>
        ) : (
          row.reports.map((r, i) => (
            <Typography key={i} variant="body2">
              {formatSaoPaulo(r.created_at)} · {personName(r.reporter)}: {r.reason}
            </Typography>
          ))
        )}
      </Box>
      <Box>
        <Typography variant="subtitle2" component="h3">
          {translate('vetclube.moderation.author_history')}
        </Typography>
        <Typography variant="body2">
          {translate('vetclube.moderation.history_line', {
            name: personName(row.author),
            posts: h.posts,
            comments: h.comments,
            hidden: h.hidden,
            removed: h.removed,
          })}
        </Typography>
      </Box>
      {row.log.length > 0 && (
        <Box>
          <Typography variant="subtitle2" component="h3">
            {translate('vetclube.moderation.log')}
          </Typography>
          {row.log.map((l, i) => (
            <Typography key={i} variant="body2">
              {formatSaoPaulo(l.created_at)} · {translate(ACTION_LABEL[l.action])} ·{' '}
              {l.actor ? personName(l.actor) : translate('vetclube.moderation.by_reports')}
              {l.reason ? ` · ${l.reason}` : ''}
            </Typography>
          ))}
        </Box>
      )}
    </Stack>
  )
}

/**
 * The moderation queue: reported and moderated posts and comments, hidden
 * ones first by default, each with its reports, the author's history and the
 * decisions the state allows.
 */
export default function ModerationList() {
  const translate = useTranslate()
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'))
  const filters = [
    <SelectInput key="state" source="state" label="resources.moderation.fields.state" choices={STATE_CHOICES} alwaysOn emptyText="Todos" />,
    <SelectInput key="target_type" source="target_type" label="resources.moderation.fields.target_type" choices={TYPE_CHOICES} alwaysOn emptyText="Todos" />,
  ]
  return (
    <List
      title={translate('vetclube.moderation.title')}
      filters={filters}
      filterDefaultValues={{ state: 'oculto' }}
      sort={{ field: 'updated_at', order: 'DESC' }}
      perPage={25}
      exporter={false}
      empty={false}
    >
      {phone ? (
        <SimpleList<ModerationRow>
          primaryText={(r) => r.excerpt}
          secondaryText={(r) => `${personName(r.author)} · ${translate(STATE_LABEL[r.state])} · ${r.report_count}`}
          tertiaryText={<ModerationButtons />}
          linkType={false}
        />
      ) : (
        <Datagrid bulkActionButtons={false} rowClick="expand" expand={<ModerationDetails />}>
          <FunctionField<ModerationRow>
            source="target_type"
            sortable={false}
            render={(r) => translate(r.target_type === 'post' ? 'vetclube.moderation.type_post' : 'vetclube.moderation.type_comment')}
          />
          <FunctionField<ModerationRow> source="excerpt" sortable={false} render={(r) => (r.excerpt.length > 120 ? `${r.excerpt.slice(0, 119)}…` : r.excerpt)} />
          <FunctionField<ModerationRow> source="author" sortable={false} render={(r) => personName(r.author)} />
          <FunctionField<ModerationRow> source="state" sortable={false} render={() => <StateChip />} />
          <FunctionField<ModerationRow> source="report_count" render={(r) => r.report_count} />
          <DateField source="updated_at" showTime locales="pt-BR" />
          <FunctionField<ModerationRow> label="vetclube.moderation.actions" sortable={false} render={() => <ModerationButtons />} />
        </Datagrid>
      )}
    </List>
  )
}
