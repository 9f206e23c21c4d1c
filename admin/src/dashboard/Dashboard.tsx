import { Box, Card, CardActions, CardContent, CardHeader, Link, Stack, Typography } from '@mui/material'
import { Link as RouterLink } from 'react-router-dom'
import { Button, Title, useGetIdentity, useGetList, usePermissions, useTranslate } from 'react-admin'
import { OverdueCard } from '../agenda/OverdueCard'
import { JobsCard } from '../vagas/JobsCard'
import { WorkQueues } from './WorkQueues'

/** A count read from the users list's Content-Range total (one row fetched). */
function UserCount({ label, role, testId }: { label: string; role?: string; testId: string }) {
  const translate = useTranslate()
  const { total, isPending, error } = useGetList('users', {
    pagination: { page: 1, perPage: 1 },
    sort: { field: 'created_at', order: 'DESC' },
    filter: role ? { role } : {},
  })
  const to = role ? `/users?filter=${encodeURIComponent(JSON.stringify({ role }))}` : '/users'
  return (
    <Card sx={{ flex: '1 1 14rem' }}>
      <CardContent>
        <Typography color="text.secondary" gutterBottom>
          {translate(label)}
        </Typography>
        <Typography variant="h4" component="p" data-testid={testId}>
          {error ? '—' : isPending ? '…' : total}
        </Typography>
        {error && (
          <Typography variant="body2" color="error">
            {translate('vetclube.dashboard.load_error')}
          </Typography>
        )}
      </CardContent>
      <CardActions>
        <Button component={RouterLink} to={to} label="vetclube.dashboard.see_users" />
      </CardActions>
    </Card>
  )
}

const APP_LINKS = [
  { href: '/', label: 'vetclube.dashboard.open_home' },
  { href: '/landing', label: 'vetclube.dashboard.open_login' },
  { href: '/ferramentas', label: 'vetclube.dashboard.open_tools' },
]

export default function Dashboard() {
  const translate = useTranslate()
  const { identity } = useGetIdentity()
  const { permissions } = usePermissions<string[]>()
  const roles = permissions ?? []
  const superAdmin = roles.includes('super_admin')
  const reviewer = superAdmin || roles.includes('revisor')
  const inWorkflow = reviewer || roles.includes('editor')
  // Applications are followed by editors, reviewers, recruiters and super admins.
  const followsJobs = inWorkflow || roles.includes('recrutador')
  return (
    <Box sx={{ mt: 2 }}>
      <Title title={translate('vetclube.dashboard.title')} />
      <Typography sx={{ mb: 2 }}>{translate('vetclube.dashboard.welcome', { name: identity?.fullName ?? '' })}</Typography>
      {inWorkflow && <WorkQueues reviewer={reviewer} />}
      {superAdmin ? (
        <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" sx={{ mb: 2 }}>
          <UserCount label="vetclube.dashboard.total_users" testId="count-users" />
          <UserCount label="vetclube.dashboard.editors" role="editor" testId="count-editors" />
          <UserCount label="vetclube.dashboard.super_admins" role="super_admin" testId="count-super-admins" />
        </Stack>
      ) : (
        <Card sx={{ mb: 2 }}>
          <CardHeader title={translate('vetclube.dashboard.your_access')} />
          <CardContent>
            <Typography>
              {roles.map((role) => translate(`vetclube.roles.${role}`, { _: role })).join(', ')}
            </Typography>
            <Typography color="text.secondary">{translate('vetclube.dashboard.no_user_access')}</Typography>
          </CardContent>
        </Card>
      )}
      {(inWorkflow || followsJobs) && (
        <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" sx={{ mb: 2 }}>
          {/* The agenda is the editorial workflow's: others may not read it. */}
          {inWorkflow && <OverdueCard />}
          {followsJobs && <JobsCard />}
        </Stack>
      )}
      <Card>
        <CardHeader title={translate('vetclube.dashboard.app_links')} />
        <CardContent>
          <Stack direction="row" spacing={3} useFlexGap flexWrap="wrap">
            {APP_LINKS.map((link) => (
              <Link key={link.href} href={link.href}>
                {translate(link.label)}
              </Link>
            ))}
          </Stack>
        </CardContent>
      </Card>
    </Box>
  )
}
