import { useCallback, useEffect, useState } from 'react'
import {
  Alert,
  Box,
  Button,
  List as MuiList,
  ListItem,
  ListItemText,
  MenuItem,
  Paper,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  TextField,
  Typography,
} from '@mui/material'
import { useNotify, useRefresh, useTranslate } from 'react-admin'
import * as api from './api'
import { actionLabel, channelLabel, transitionLabel, statusLabel } from './labels'
import { useTeamNames } from './useTeamNames'
import { formatSaoPaulo } from './time'
import type { AdminItem } from './types'

function show(v: unknown, field?: string): string {
  if (v == null) return '—'
  // The state is a code in the revision; people read its name.
  if (field === 'status' && typeof v === 'string') return statusLabel(v)
  if (typeof v === 'string') return v.length > 300 ? v.slice(0, 300) + '…' : v
  return JSON.stringify(v)
}

/** Revisions with a field-by-field diff between any two, and restore as a new revision. */
function History({ type, item }: { type: string; item: AdminItem }) {
  const translate = useTranslate()
  const notify = useNotify()
  const refresh = useRefresh()
  const [revs, setRevs] = useState<api.Revision[]>([])
  const [from, setFrom] = useState<number | ''>('')
  const [to, setTo] = useState<number | ''>('')
  const [changes, setChanges] = useState<api.Change[] | null>(null)
  const [error, setError] = useState('')

  useEffect(() => {
    api
      .revisions(type, item.id)
      .then((r) => {
        setRevs(r)
        if (r.length > 1) {
          setFrom(r[1].revision)
          setTo(r[0].revision)
        }
      })
      .catch((e) => setError(e.message))
  }, [type, item.id, item.version])

  useEffect(() => {
    if (from === '' || to === '') return
    api
      .diff(type, item.id, from, to)
      .then(setChanges)
      .catch((e) => setError(e.message))
  }, [type, item.id, from, to])

  const onRestore = async (rev: number) => {
    try {
      await api.restore(type, item, rev)
      notify('vetclube.content.restored', { type: 'success', messageArgs: { revision: rev } })
      refresh()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }
  const choice = (r: api.Revision) => `#${r.revision} · ${formatSaoPaulo(r.created_at)} · ${actionLabel(r.action)}`
  return (
    <Box>
      {error && <Alert severity="error">{error}</Alert>}
      <Box sx={{ display: 'flex', gap: 2, my: 2, flexWrap: 'wrap' }}>
        <TextField select label={translate('vetclube.content.diff_from')} value={from} onChange={(e) => setFrom(Number(e.target.value))} sx={{ minWidth: 260 }}>
          {revs.map((r) => (
            <MenuItem key={r.revision} value={r.revision}>
              {choice(r)}
            </MenuItem>
          ))}
        </TextField>
        <TextField select label={translate('vetclube.content.diff_to')} value={to} onChange={(e) => setTo(Number(e.target.value))} sx={{ minWidth: 260 }}>
          {revs.map((r) => (
            <MenuItem key={r.revision} value={r.revision}>
              {choice(r)}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {changes && (
        <Table size="small" aria-label={translate('vetclube.content.diff')}>
          <TableHead>
            <TableRow>
              <TableCell>{translate('vetclube.content.field')}</TableCell>
              <TableCell>{translate('vetclube.content.before')}</TableCell>
              <TableCell>{translate('vetclube.content.after')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {changes.length === 0 && (
              <TableRow>
                <TableCell colSpan={3}>{translate('vetclube.content.no_changes')}</TableCell>
              </TableRow>
            )}
            {changes.map((c) => (
              <TableRow key={c.field}>
                <TableCell>{c.label}</TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{show(c.before, c.field)}</TableCell>
                <TableCell sx={{ whiteSpace: 'pre-wrap' }}>{show(c.after, c.field)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <MuiList dense aria-label={translate('vetclube.content.revisions')}>
        {revs.map((r) => (
          <ListItem
            key={r.revision}
            secondaryAction={
              r.revision !== item.version && (
                <Button size="small" onClick={() => onRestore(r.revision)}>
                  {translate('vetclube.content.restore')}
                </Button>
              )
            }
          >
            <ListItemText
              primary={`#${r.revision} · ${r.snapshot?.title ?? ''}`}
              secondary={`${formatSaoPaulo(r.created_at)} · ${actionLabel(r.action)} · ${channelLabel(r.channel)}${r.restored_from ? ` · ${translate('vetclube.content.restored_from', { revision: r.restored_from })}` : ''}`}
            />
          </ListItem>
        ))}
      </MuiList>
    </Box>
  )
}

/** The item's audit events, newest first. */
function Timeline({ type, item }: { type: string; item: AdminItem }) {
  const who = useTeamNames()
  const [events, setEvents] = useState<api.AuditEvent[]>([])
  const [error, setError] = useState('')
  useEffect(() => {
    api
      .timeline(type, item.id)
      .then(setEvents)
      .catch((e) => setError(e.message))
  }, [type, item.id, item.version])
  return (
    <Box>
      {error && <Alert severity="error">{error}</Alert>}
      <MuiList dense>
        {events.map((e) => (
          <ListItem key={e.id}>
            <ListItemText
              primary={`${actionLabel(e.action)} · ${transitionLabel(e.from, e.to)}`}
              secondary={`${formatSaoPaulo(e.created_at)} · ${who(e.actor_id, e.actor_name)}${e.reason ? ` · ${e.reason}` : ''}${e.ip ? ` · ${e.ip}` : ''}`}
            />
          </ListItem>
        ))}
      </MuiList>
    </Box>
  )
}

/** Review comments, per revision, and a box to add one. */
function Comments({ type, item }: { type: string; item: AdminItem }) {
  const translate = useTranslate()
  const [list, setList] = useState<api.ReviewComment[]>([])
  const [body, setBody] = useState('')
  const [error, setError] = useState('')
  const load = useCallback(() => {
    api
      .comments(type, item.id)
      .then(setList)
      .catch((e) => setError(e.message))
  }, [type, item.id])
  useEffect(load, [load, item.version])
  const send = async () => {
    setError('')
    try {
      await api.addComment(type, item.id, body.trim())
      setBody('')
      load()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }
  return (
    <Box>
      {error && <Alert severity="error">{error}</Alert>}
      <MuiList dense>
        {list.length === 0 && <Typography color="text.secondary">{translate('vetclube.content.no_comments')}</Typography>}
        {list.map((c) => (
          <ListItem key={c.id}>
            <ListItemText primary={c.body} secondary={`#${c.revision} · ${formatSaoPaulo(c.created_at)}`} />
          </ListItem>
        ))}
      </MuiList>
      <TextField
        fullWidth
        multiline
        minRows={2}
        label={translate('vetclube.content.new_comment')}
        value={body}
        onChange={(e) => setBody(e.target.value)}
      />
      <Button sx={{ mt: 1 }} variant="outlined" disabled={body.trim() === ''} onClick={send}>
        {translate('vetclube.content.comment')}
      </Button>
    </Box>
  )
}

const who = (m: { name: string; email: string }) => (m.name ? `${m.name} (${m.email})` : m.email)

/** A co-editor as the team list shows them, else by the name the API gives. */
const coEditorName = (c: api.CoEditor, team: api.Member[]) => {
  const m = team.find((t) => t.id === c.user_id)
  return m ? who(m) : c.name
}

/** The item's reviewer, chosen from the team, and the editors it is shared with. */
function Team({ type, item }: { type: string; item: AdminItem }) {
  const translate = useTranslate()
  const notify = useNotify()
  const [members, setMembers] = useState<api.Member[]>([])
  const [reviewerId, setReviewerId] = useState('')
  const [shared, setShared] = useState<api.CoEditor[]>([])
  const [adding, setAdding] = useState('')
  const [error, setError] = useState('')
  useEffect(() => {
    Promise.all([api.team(), api.reviewer(type, item.id), api.coEditors(type, item.id)])
      .then(([t, r, c]) => {
        setMembers(t)
        setReviewerId(r)
        setShared(c)
      })
      .catch((e) => setError(e.message))
  }, [type, item.id])
  const reviewers = members.filter((m) => m.roles.includes('revisor') || m.roles.includes('super_admin'))
  const editors = members.filter((m) => m.id !== item.author_id && !shared.some((c) => c.user_id === m.id))
  const run = async (fn: () => Promise<void>, done: string) => {
    setError('')
    try {
      await fn()
      notify(done, { type: 'success' })
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {error && <Alert severity="error">{error}</Alert>}
      <TextField
        select
        label={translate('vetclube.content.reviewer')}
        value={reviewerId}
        onChange={(e) => {
          const id = e.target.value
          void run(async () => {
            await api.assignReviewer(type, item.id, id)
            setReviewerId(id)
          }, 'vetclube.content.reviewer_assigned')
        }}
        sx={{ maxWidth: 420 }}
      >
        {reviewers.map((m) => (
          <MenuItem key={m.id} value={m.id}>
            {who(m)}
          </MenuItem>
        ))}
      </TextField>
      <Typography variant="subtitle2">{translate('vetclube.content.shared_with')}</Typography>
      <MuiList dense aria-label={translate('vetclube.content.shared_with')}>
        {shared.length === 0 && <Typography color="text.secondary">{translate('vetclube.content.not_shared')}</Typography>}
        {shared.map((c) => (
          <ListItem
            key={c.user_id}
            secondaryAction={
              <Button
                size="small"
                onClick={() =>
                  run(async () => setShared(await api.share(type, item.id, c.user_id, false)), 'vetclube.content.unshared')
                }
              >
                {translate('ra.action.remove')}
              </Button>
            }
          >
            <ListItemText primary={coEditorName(c, members)} />
          </ListItem>
        ))}
      </MuiList>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField
          select
          label={translate('vetclube.content.share_with')}
          value={adding}
          onChange={(e) => setAdding(e.target.value)}
          sx={{ minWidth: 280 }}
        >
          {editors.map((m) => (
            <MenuItem key={m.id} value={m.id}>
              {who(m)}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="outlined"
          disabled={!adding}
          onClick={() =>
            run(async () => {
              setShared(await api.share(type, item.id, adding, true))
              setAdding('')
            }, 'vetclube.content.shared')
          }
        >
          {translate('vetclube.content.share')}
        </Button>
      </Box>
    </Box>
  )
}

/** 'Histórico', 'Linha do tempo', 'Comentários' and 'Equipe' under the form. */
export function ItemPanels({ type, item }: { type: string; item: AdminItem }) {
  const translate = useTranslate()
  const [tab, setTab] = useState(0)
  return (
    <Paper variant="outlined" sx={{ mt: 2, p: 2 }}>
      <Tabs value={tab} onChange={(_, v) => setTab(v)} aria-label={translate('vetclube.content.panels')}>
        <Tab label={translate('vetclube.content.history')} />
        <Tab label={translate('vetclube.content.timeline')} />
        <Tab label={translate('vetclube.content.comments')} />
        <Tab label={translate('vetclube.content.team')} />
      </Tabs>
      <Box sx={{ pt: 2 }}>
        {tab === 0 && <History type={type} item={item} />}
        {tab === 1 && <Timeline type={type} item={item} />}
        {tab === 2 && <Comments type={type} item={item} />}
        {tab === 3 && <Team type={type} item={item} />}
      </Box>
    </Paper>
  )
}
