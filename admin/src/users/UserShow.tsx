import { Box, Button, Stack, Typography } from '@mui/material'
import { useMutation } from '@tanstack/react-query'
import {
  BooleanField,
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

/** Grant or revoke editor / super_admin; the server keeps both idempotent. */
function RoleManager() {
  const record = useRecordContext<AdminUser>()
  const dataProvider = useDataProvider<BackofficeDataProvider>()
  const { identity } = useGetIdentity()
  const notify = useNotify()
  const refresh = useRefresh()
  const translate = useTranslate()
  const { mutate, isPending } = useMutation({
    mutationFn: ({ role, grant }: { role: string; grant: boolean }) =>
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
  })
  if (!record) return null
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
              onClick={() => mutate({ role, grant: !has })}
            >
              {translate(has ? 'vetclube.users.revoke' : 'vetclube.users.grant', { role: roleName })}
            </Button>
          )
        })}
      </Stack>
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
      </SimpleShowLayout>
    </Show>
  )
}
