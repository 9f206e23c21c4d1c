import { useState } from 'react'
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from '@mui/material'
import { Confirm, useNotify, useRefresh, useTranslate } from 'react-admin'
import { act } from './api'
import { formatSaoPaulo, saoPauloToUTC, utcToSaoPaulo } from './time'
import type { AdminItem } from './types'

/** Moves that lose, hide or publish something ask first. */
const CONFIRM = new Set(['discard', 'archive', 'unpublish', 'publish'])

/**
 * The workflow buttons the server says this user may press on this item
 * (AdminItem.actions, labelled by the server: 'Enviar para revisão',
 * 'Aprovar', 'Solicitar alterações', 'Agendar publicação', 'Publicar agora',
 * 'Despublicar', 'Arquivar', 'Descartar alterações').
 */
export function WorkflowBar({
  type,
  item,
  disabled,
  onDone,
}: {
  type: string
  item: AdminItem
  disabled?: boolean
  /** Told of every move the server accepted. */
  onDone?: (action: string) => void
}) {
  const translate = useTranslate()
  const notify = useNotify()
  const refresh = useRefresh()
  const [dialog, setDialog] = useState<string | null>(null)
  const [reason, setReason] = useState('')
  const [when, setWhen] = useState(() => utcToSaoPaulo(item.publish_at ?? new Date(Date.now() + 3_600_000).toISOString()))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')

  const run = async (action: string, extra: { reason?: string; publish_at?: string } = {}) => {
    setBusy(true)
    setError('')
    try {
      const next = await act(type, item, action, extra)
      setDialog(null)
      setReason('')
      // Say what happened, in words: the move and, for a schedule, the moment.
      const at = next.publish_at ?? extra.publish_at
      notify(`vetclube.content.done.${action}`, {
        type: 'success',
        messageArgs: { title: item.title, when: at ? formatSaoPaulo(at) : '', _: translate('vetclube.content.action_done') },
      })
      onDone?.(action)
      refresh()
    } catch (e) {
      setError(e instanceof Error ? e.message : translate('vetclube.content.action_failed'))
    } finally {
      setBusy(false)
    }
  }

  const press = (action: string) => {
    if (action === 'request_changes' || action === 'schedule' || CONFIRM.has(action)) setDialog(action)
    else void run(action)
  }
  const label = (action: string) => item.actions.find((a) => a.action === action)?.label ?? action

  if (item.actions.length === 0) return null
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 2 }} role="toolbar" aria-label={translate('vetclube.content.workflow')}>
      {item.actions.map((a) => (
        <Button
          key={a.action}
          variant={a.action === 'publish' || a.action === 'approve' || a.action === 'submit' ? 'contained' : 'outlined'}
          onClick={() => press(a.action)}
          disabled={busy || disabled}
        >
          {a.label}
        </Button>
      ))}
      {error && !dialog && (
        <Alert severity="error" sx={{ width: '100%' }}>
          {error}
        </Alert>
      )}

      <Dialog open={dialog === 'request_changes'} onClose={() => setDialog(null)} fullWidth>
        <DialogTitle>{label('request_changes')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            multiline
            minRows={3}
            margin="dense"
            label={translate('vetclube.content.change_reason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
          />
          {error && <Alert severity="error">{error}</Alert>}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDialog(null)}>{translate('ra.action.cancel')}</Button>
          <Button variant="contained" disabled={busy || reason.trim() === ''} onClick={() => run('request_changes', { reason: reason.trim() })}>
            {label('request_changes')}
          </Button>
        </DialogActions>
      </Dialog>

      <Dialog open={dialog === 'schedule'} onClose={() => setDialog(null)} fullWidth>
        <DialogTitle>{label('schedule')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            type="datetime-local"
            label={translate('vetclube.content.publish_at')}
            helperText={translate('vetclube.content.sao_paulo_time')}
            value={when}
            onChange={(e) => setWhen(e.target.value)}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          {error && <Alert severity="error">{error}</Alert>}
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setDialog(null)}>{translate('ra.action.cancel')}</Button>
          <Button
            variant="contained"
            disabled={busy || !saoPauloToUTC(when)}
            onClick={() => run('schedule', { publish_at: saoPauloToUTC(when) })}
          >
            {label('schedule')}
          </Button>
        </DialogActions>
      </Dialog>

      <Confirm
        isOpen={dialog != null && CONFIRM.has(dialog)}
        loading={busy}
        title={dialog ? label(dialog) : ''}
        content={translate(`vetclube.content.confirm_${dialog ?? 'archive'}`)}
        onConfirm={() => dialog && run(dialog)}
        onClose={() => setDialog(null)}
      />
    </Box>
  )
}
