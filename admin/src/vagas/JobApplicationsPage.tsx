import { useCallback, useEffect, useState } from 'react'
import {
  Alert,
  Avatar,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Link,
  List,
  ListItemButton,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material'
import { Title, useNotify, usePermissions } from 'react-admin'
import { formatSaoPaulo } from '../content/time'
import {
  STATUS_CHOICES,
  addRecruiter,
  jobApplications,
  managedJobs,
  recruiters,
  removeRecruiter,
  setStatus,
  type ApplicationStatus,
  type JobApplication,
  type ManagedJob,
  type Recruiter,
} from './api'

const STAFF = ['editor', 'revisor', 'super_admin']

function errorText(e: unknown): string {
  return e instanceof Error && e.message ? e.message : 'Erro ao processar requisição. Tente novamente.'
}

/** One application: the applicant's public profile, message, CV, and the status form. */
function ApplicationCard({ app, onSaved }: { app: JobApplication; onSaved: (a: JobApplication) => void }) {
  const notify = useNotify()
  const [status, setStatusValue] = useState<ApplicationStatus>(app.status)
  const [note, setNote] = useState(app.note)
  const [saving, setSaving] = useState(false)
  const p = app.applicant
  const name = p ? `${p.first_name} ${p.last_name}`.trim() : 'Usuário VetClube'
  const save = async () => {
    setSaving(true)
    try {
      onSaved(await setStatus(app.id, status, note))
      notify('Status da candidatura atualizado; o candidato foi avisado.', { type: 'success' })
    } catch (e) {
      notify(errorText(e), { type: 'error' })
    } finally {
      setSaving(false)
    }
  }
  return (
    <Card variant="outlined" data-testid="job-application">
      <CardContent>
        <Stack direction="row" spacing={2} alignItems="center">
          <Avatar src={p?.avatar_url || undefined} alt="" />
          <Box>
            <Typography variant="subtitle1" component="h3">
              {name} {p?.verified && <Chip size="small" label="Verificado" sx={{ ml: 1 }} />}
            </Typography>
            {p?.title && <Typography variant="body2">{p.title}</Typography>}
            {p?.crmv && <Typography variant="body2">{p.crmv}</Typography>}
          </Box>
          <Box sx={{ flexGrow: 1 }} />
          <Chip label={app.status_label} />
        </Stack>
        {p?.biography && (
          <Typography variant="body2" sx={{ mt: 1 }}>
            {p.biography}
          </Typography>
        )}
        {app.message && (
          <Typography variant="body2" sx={{ mt: 1, whiteSpace: 'pre-wrap' }}>
            <strong>Mensagem:</strong> {app.message}
          </Typography>
        )}
        <Typography variant="caption" display="block" sx={{ mt: 1 }}>
          Recebida em {formatSaoPaulo(app.created_at)}
        </Typography>
        {app.has_cv && (
          <Link href={`/api/vagas/candidaturas/${app.id}/curriculo`} target="_blank" rel="noopener" sx={{ display: 'inline-block', mt: 1 }}>
            Currículo: {app.cv_name || 'currículo.pdf'}
          </Link>
        )}
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mt: 2 }} alignItems={{ sm: 'flex-start' }}>
          <TextField
            select
            size="small"
            label="Status"
            value={status}
            onChange={(e) => setStatusValue(e.target.value as ApplicationStatus)}
            sx={{ minWidth: 180 }}
            inputProps={{ 'aria-label': `Status da candidatura de ${name}` }}
          >
            {STATUS_CHOICES.map((c) => (
              <MenuItem key={c.id} value={c.id}>
                {c.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            size="small"
            label="Observação para o candidato"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            inputProps={{ maxLength: 2000 }}
            multiline
            sx={{ flexGrow: 1 }}
          />
          <Button variant="contained" onClick={save} disabled={saving || (status === app.status && note === app.note)}>
            Salvar status
          </Button>
        </Stack>
        {app.history.length > 1 && (
          <Box component="ol" sx={{ mt: 1, pl: 3 }}>
            {app.history.map((h, i) => (
              <Typography component="li" variant="caption" key={i}>
                {formatSaoPaulo(h.at)} — {h.status_label}
                {h.note ? `: ${h.note}` : ''}
              </Typography>
            ))}
          </Box>
        )}
      </CardContent>
    </Card>
  )
}

/** The job's recruiters (editorial staff assign accounts with the recrutador role). */
function Recruiters({ jobId }: { jobId: string }) {
  const notify = useNotify()
  const [list, setList] = useState<Recruiter[]>([])
  const [email, setEmail] = useState('')
  useEffect(() => {
    recruiters(jobId).then(setList, () => setList([]))
  }, [jobId])
  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="h6" component="h2">
        Recrutadores da vaga
      </Typography>
      {list.length === 0 && <Typography variant="body2">Nenhum recrutador atribuído.</Typography>}
      <Stack spacing={1} sx={{ my: 1 }}>
        {list.map((r) => (
          <Stack key={r.user_id} direction="row" spacing={1} alignItems="center">
            <Typography variant="body2">
              {r.name} ({r.email})
            </Typography>
            <Button size="small" onClick={() => removeRecruiter(jobId, r.user_id).then(setList, (e) => notify(errorText(e), { type: 'error' }))}>
              Remover
            </Button>
          </Stack>
        ))}
      </Stack>
      <Stack direction="row" spacing={1}>
        <TextField size="small" label="E-mail do recrutador" value={email} onChange={(e) => setEmail(e.target.value)} />
        <Button
          variant="outlined"
          onClick={() =>
            addRecruiter(jobId, email).then(
              (l) => {
                setList(l)
                setEmail('')
              },
              (e) => notify(errorText(e), { type: 'error' }),
            )
          }
        >
          Atribuir
        </Button>
      </Stack>
    </Box>
  )
}

/**
 * #/vagas-candidaturas: the jobs the signed-in person manages (super admins
 * and revisors every job, editors the ones they wrote or share, recruiters
 * the ones assigned to them), and each job's applications with the
 * applicant's public profile, CV, status and note.
 */
export default function JobApplicationsPage() {
  const { permissions } = usePermissions<string[]>()
  const staff = !!permissions?.some((r) => STAFF.includes(r))
  const [jobs, setJobs] = useState<ManagedJob[] | null>(null)
  const [error, setError] = useState('')
  const [selected, setSelected] = useState<string>('')
  const [apps, setApps] = useState<JobApplication[] | null>(null)
  useEffect(() => {
    managedJobs().then(setJobs, (e) => setError(errorText(e)))
  }, [])
  const load = useCallback((id: string) => {
    setSelected(id)
    setApps(null)
    jobApplications(id).then(setApps, (e) => setError(errorText(e)))
  }, [])
  const job = jobs?.find((j) => j.id === selected)
  return (
    <Box sx={{ p: { xs: 1, sm: 2 } }}>
      <Title title="Candidaturas das vagas" />
      {error && <Alert severity="error">{error}</Alert>}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems="flex-start">
        <Card sx={{ width: { xs: '100%', md: 340 }, flexShrink: 0 }}>
          <CardContent>
            <Typography variant="h6" component="h2">
              Vagas
            </Typography>
            {jobs && jobs.length === 0 && <Typography variant="body2">Nenhuma vaga sob sua gestão.</Typography>}
            <List dense aria-label="Vagas">
              {jobs?.map((j) => (
                <ListItemButton key={j.id} selected={j.id === selected} onClick={() => load(j.id)}>
                  <ListItemText
                    primary={j.title}
                    secondary={`${j.organization} · ${j.city}/${j.state} · ${j.applications} candidatura(s)${j.new_applications ? `, ${j.new_applications} nova(s)` : ''}${j.published ? '' : ' · fora do ar'}`}
                  />
                </ListItemButton>
              ))}
            </List>
          </CardContent>
        </Card>
        <Box sx={{ flexGrow: 1, width: '100%' }}>
          {!job && <Typography>Escolha uma vaga para ver as candidaturas.</Typography>}
          {job && (
            <>
              <Typography variant="h5" component="h2" gutterBottom>
                {job.title}
              </Typography>
              {apps && apps.length === 0 && <Typography>Nenhuma candidatura ainda.</Typography>}
              <Stack spacing={2}>
                {apps?.map((a) => (
                  <ApplicationCard key={a.id} app={a} onSaved={(n) => setApps((l) => l?.map((x) => (x.id === n.id ? { ...n, applicant: x.applicant } : x)) ?? null)} />
                ))}
              </Stack>
              {staff && <Recruiters jobId={job.id} />}
            </>
          )}
        </Box>
      </Stack>
    </Box>
  )
}
