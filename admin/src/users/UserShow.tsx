import { useState } from 'react'
import { Box, Button, List, ListItem, ListItemText, Stack, Typography } from '@mui/material'
import { useMutation, useQuery } from '@tanstack/react-query'
import {
  BooleanField,
  Confirm,
  DateField,
  FunctionField,
  Labeled,
  Show,
  SimpleShowLayout,
  TextField,
  useDataProvider,
  useGetIdentity,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from 'react-admin'
import type { BackofficeDataProvider } from '../providers/dataProvider'
import { RoleChips } from './RoleChips'
import { fullName } from './UserList'
import { GRANTABLE_ROLES, type AdminUser } from './types'

interface RoleChangeRequest {
  role: (typeof GRANTABLE_ROLES)[number]
  grant: boolean
}

const dateTime = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Sao_Paulo' })

/**
 * Grant or revoke editor, revisor or super_admin. Every change opens a
 * confirmation naming what the person gains or loses; the server keeps both
 * calls idempotent and records them in the role history.
 */
function RoleManager() {
  const record = useRecordContext<AdminUser>()
  const dataProvider = useDataProvider<BackofficeDataProvider>()
  const { identity } = useGetIdentity()
  const notify = useNotify()
  const refresh = useRefresh()
  const translate = useTranslate()
  const [asked, setAsked] = useState<RoleChangeRequest | null>(null)
  const { mutate, isPending } = useMutation({
    mutationFn: ({ role, grant }: RoleChangeRequest) =>
      grant ? dataProvider.grantRole(String(record!.id), role) : dataProvider.revokeRole(String(record!.id), role),
    onSuccess: (_data, { role, grant }) => {
      const roleName = translate(`vetclube.roles.${role}`)
      notify(grant ? 'vetclube.users.granted' : 'vetclube.users.revoked', {
        type: 'success',
        messageArgs: { role: roleName },
      })
      refresh()
    },
    onError: (error: Error) => notify(error.message, { type: 'error' }),
    onSettled: () => setAsked(null),
  })
  if (!record) return null
  const person = fullName(record) || record.email
  return (
    <Box>
      <Typography variant="subtitle1" component="h2">
        {translate('vetclube.users.manage_roles')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('vetclube.users.manage_roles_help')}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap">
        {GRANTABLE_ROLES.map((role) => {
          const has = record.roles.includes(role)
          const ownSuperAdmin = has && role === 'super_admin' && identity?.id === record.id
          const roleName = translate(`vetclube.roles.${role}`)
          return (
            <Button
              key={role}
              variant={has ? 'outlined' : 'contained'}
              color={has ? 'error' : 'primary'}
              disabled={isPending || ownSuperAdmin}
              title={ownSuperAdmin ? translate('vetclube.users.own_super_admin') : undefined}
              onClick={() => setAsked({ role, grant: !has })}
            >
              {translate(has ? 'vetclube.users.revoke' : 'vetclube.users.grant', { role: roleName })}
            </Button>
          )
        })}
      </Stack>
      {asked && (
        <Confirm
          isOpen
          loading={isPending}
          title={translate(asked.grant ? 'vetclube.users.confirm_grant_title' : 'vetclube.users.confirm_revoke_title', {
            role: translate(`vetclube.roles.${asked.role}`),
            user: person,
          })}
          content={translate(`vetclube.users.consequence_${asked.grant ? 'grant' : 'revoke'}_${asked.role}`)}
          confirm={asked.grant ? 'vetclube.users.confirm_grant' : 'vetclube.users.confirm_revoke'}
          confirmColor={asked.grant ? 'primary' : 'warning'}
          onConfirm={() => mutate(asked)}
          onClose={() => setAsked(null)}
        />
      )}
    </Box>
  )
}

/** Who granted or revoked which role, newest first (the server's audit of role_changes). */
function RoleHistory() {
  const record = useRecordContext<AdminUser>()
  const dataProvider = useDataProvider<BackofficeDataProvider>()
  const translate = useTranslate()
  const userId = record ? String(record.id) : ''
  // The roles array is in the key so a grant made on this page shows at once.
  const { data, isError } = useQuery({
    queryKey: ['users', userId, 'role-changes', record?.roles.join(',')],
    queryFn: () => dataProvider.roleChanges(userId),
    enabled: !!record,
  })
  if (!record) return null
  return (
    <Box>
      <Typography variant="subtitle1" component="h2">
        {translate('vetclube.users.history')}
      </Typography>
      {isError && <Typography color="error">{translate('vetclube.users.history_error')}</Typography>}
      {data && data.length === 0 && <Typography color="text.secondary">{translate('vetclube.users.history_empty')}</Typography>}
      {data && data.length > 0 && (
        <List dense aria-label={translate('vetclube.users.history')}>
          {data.map((change, i) => (
            <ListItem key={`${change.at}-${i}`} disableGutters>
              <ListItemText
                primary={translate(change.change === 'granted' ? 'vetclube.users.history_granted' : 'vetclube.users.history_revoked', {
                  role: translate(`vetclube.roles.${change.role}`, { _: change.role }),
                })}
                secondary={`${dateTime.format(new Date(change.at))} · ${
                  change.actor_email
                    ? translate('vetclube.users.history_by', { actor: change.actor_email })
                    : translate('vetclube.users.history_by_system')
                }`}
              />
            </ListItem>
          ))}
        </List>
      )}
    </Box>
  )
}

export default function UserShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="email" />
        <FunctionField<AdminUser> label="resources.users.fields.full_name" render={fullName} />
        <Labeled label="resources.users.fields.roles">
          <RoleChips />
        </Labeled>
        <BooleanField source="email_confirmed" />
        <DateField source="created_at" locales="pt-BR" showTime />
        <TextField source="id" />
        <RoleManager />
        <RoleHistory />
      </SimpleShowLayout>
    </Show>
  )
}
