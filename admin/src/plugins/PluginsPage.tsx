import { useEffect, useState } from 'react'
import { Alert, Box, Chip, Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material'
import { Title, useTranslate } from 'react-admin'
import { httpClient } from '../providers/httpClient'

/** The confinement one plugin process runs under (GET /api/admin/plugins). */
export interface Confinement {
  enabled: boolean
  user: string
  landlock: number
  network: boolean
  scoped: boolean
  seccomp: boolean
  no_new_privs: boolean
  memory_bytes: number
  open_files: number
  processes: number
  missing: string[]
}

/** A plugin's process: started on its first call, stopped when idle. */
export interface PluginProcess {
  state: 'running' | 'idle' | 'starting' | 'restarting' | 'failed' | 'stopped'
  on_demand: boolean
  idle_seconds?: number
  pid?: number
  rss_bytes?: number
  started_at?: string
  last_call_at?: string
  cold_start_ms?: number
  last_error?: string
}

export interface AdminPlugin {
  id: string
  name: string
  version?: string
  kind?: string
  running?: boolean
  refused?: string
  confinement?: Confinement
  process?: PluginProcess
}

const STATES = ['running', 'idle', 'starting', 'restarting', 'failed', 'stopped']

function StateCell({ p }: { p: AdminPlugin }) {
  const translate = useTranslate()
  if (p.refused) return <>{translate('vetclube.plugins.refused', { reason: p.refused })}</>
  const proc = p.process
  if (!proc || !STATES.includes(proc.state)) {
    return <>{translate(p.running ? 'vetclube.plugins.running' : 'vetclube.plugins.restarting')}</>
  }
  const lines: string[] = []
  if (proc.pid) lines.push(translate('vetclube.plugins.pid', { pid: proc.pid }))
  if (proc.rss_bytes) lines.push(translate('vetclube.plugins.rss', { mib: (proc.rss_bytes / (1 << 20)).toFixed(1).replace('.', ',') }))
  if (proc.last_call_at) {
    lines.push(translate('vetclube.plugins.last_call', { when: new Date(proc.last_call_at).toLocaleString('pt-BR') }))
  }
  if (proc.cold_start_ms) lines.push(translate('vetclube.plugins.cold_start', { ms: Math.round(proc.cold_start_ms) }))
  lines.push(
    proc.on_demand
      ? translate('vetclube.plugins.on_demand', { minutes: Math.round((proc.idle_seconds ?? 0) / 6) / 10 })
      : translate('vetclube.plugins.resident'),
  )
  return (
    <Box data-state={proc.state}>
      <Typography variant="body2">
        {translate(`vetclube.plugins.state_${proc.state}`, { error: proc.last_error ?? '' })}
      </Typography>
      {lines.map((l) => (
        <Typography key={l} variant="caption" color="text.secondary" component="div">
          {l}
        </Typography>
      ))}
    </Box>
  )
}

// Mechanisms the host may report missing; anything else shows as is.
const MISSING = ['all', 'user', 'processes', 'landlock', 'network', 'signals', 'seccomp']

function ConfinementCell({ c }: { c?: Confinement }) {
  const translate = useTranslate()
  if (!c) return null
  if (!c.enabled) return <Alert severity="error">{translate('vetclube.plugins.off')}</Alert>
  const chips: string[] = []
  if (c.user.startsWith('own-user')) chips.push(translate('vetclube.plugins.own_user', { user: c.user.replace(/^own-user:/, '') }))
  if (c.user === 'user-namespace') chips.push(translate('vetclube.plugins.user_namespace'))
  if (c.landlock > 0) chips.push(translate('vetclube.plugins.landlock', { version: c.landlock }))
  if (c.network) chips.push(translate('vetclube.plugins.network'))
  if (c.scoped) chips.push(translate('vetclube.plugins.scoped'))
  if (c.seccomp) chips.push(translate('vetclube.plugins.seccomp'))
  chips.push(translate('vetclube.plugins.memory', { mib: Math.round(c.memory_bytes / (1 << 20)) }))
  chips.push(translate('vetclube.plugins.open_files', { n: c.open_files }))
  if (c.processes > 0) chips.push(translate('vetclube.plugins.processes', { n: c.processes }))
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {chips.map((label) => (
        <Chip key={label} size="small" color="success" variant="outlined" label={label} />
      ))}
      {c.missing.length > 0 && (
        <Alert severity="warning" sx={{ width: '100%', mt: 0.5 }}>
          {translate('vetclube.plugins.missing')}{' '}
          {c.missing.map((m) => (MISSING.includes(m) ? translate(`vetclube.plugins.missing_${m}`) : m)).join(', ')}
        </Alert>
      )}
    </Box>
  )
}

/** 'Plugins' (super admins): every plugin and the confinement its process runs under. */
export default function PluginsPage() {
  const translate = useTranslate()
  const [plugins, setPlugins] = useState<AdminPlugin[] | null>(null)
  const [error, setError] = useState('')
  useEffect(() => {
    httpClient('/api/admin/plugins')
      .then(({ json }) => setPlugins((json ?? []) as AdminPlugin[]))
      .catch((e) => setError(e.message))
  }, [])
  return (
    <Box sx={{ p: 2 }}>
      <Title title={translate('vetclube.plugins.title')} />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {translate('vetclube.plugins.intro')}
      </Typography>
      {error && <Alert severity="error">{error}</Alert>}
      {plugins && plugins.length === 0 && <Typography>{translate('vetclube.plugins.empty')}</Typography>}
      {plugins && plugins.length > 0 && (
        <TableContainer component={Paper}>
          <Table size="small" aria-label={translate('vetclube.plugins.title')}>
            <TableHead>
              <TableRow>
                <TableCell>{translate('vetclube.plugins.plugin')}</TableCell>
                <TableCell>{translate('vetclube.plugins.version')}</TableCell>
                <TableCell>{translate('vetclube.plugins.state')}</TableCell>
                <TableCell>{translate('vetclube.plugins.confinement')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {plugins.map((p) => (
                <TableRow key={p.id} data-plugin={p.id}>
                  <TableCell>
                    <Typography variant="body2">{p.name}</Typography>
                    <Typography variant="caption" color="text.secondary">
                      {p.id}
                    </Typography>
                  </TableCell>
                  <TableCell>{p.version ?? '—'}</TableCell>
                  <TableCell>
                    <StateCell p={p} />
                  </TableCell>
                  <TableCell>
                    <ConfinementCell c={p.confinement} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Box>
  )
}
