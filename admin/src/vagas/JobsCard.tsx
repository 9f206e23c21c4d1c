import { useEffect, useState } from 'react'
import { Card, CardContent, Link, List, ListItem, ListItemText, Typography } from '@mui/material'
import { Link as RouterLink } from 'react-router-dom'
import { useTranslate } from 'react-admin'
import { managedJobs, type ManagedJob } from './api'

/** Dashboard card: the jobs the signed-in person follows, with their new applications. */
export function JobsCard() {
  const translate = useTranslate()
  const [jobs, setJobs] = useState<ManagedJob[] | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    managedJobs()
      .then(setJobs)
      .catch(() => setFailed(true))
  }, [])
  const waiting = (jobs ?? []).filter((j) => j.new_applications > 0)
  return (
    <Card sx={{ flex: '1 1 20rem' }} data-testid="jobs-card" component="section" aria-labelledby="jobs-card-title">
      <CardContent>
        <Typography id="jobs-card-title" variant="h6" component="h2" gutterBottom>
          {translate('vetclube.dashboard.jobs_title')}
        </Typography>
        {failed ? (
          <Typography color="error">{translate('vetclube.dashboard.load_error')}</Typography>
        ) : jobs === null ? (
          <Typography color="text.secondary">…</Typography>
        ) : waiting.length === 0 ? (
          <Typography color="text.secondary">
            {jobs.length === 0 ? translate('vetclube.dashboard.jobs_none') : translate('vetclube.dashboard.jobs_no_new')}
          </Typography>
        ) : (
          <List dense disablePadding>
            {waiting.map((j) => (
              <ListItem key={j.id} disableGutters>
                <ListItemText
                  primary={j.title}
                  secondary={translate('vetclube.dashboard.jobs_new', { smart_count: j.new_applications, count: j.new_applications })}
                />
              </ListItem>
            ))}
          </List>
        )}
        <Link component={RouterLink} to="/vagas-candidaturas">
          {translate('vetclube.dashboard.jobs_open')}
        </Link>
      </CardContent>
    </Card>
  )
}
