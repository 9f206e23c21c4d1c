import { Chip, Stack } from '@mui/material'
import { useRecordContext, useTranslate } from 'react-admin'
import type { AdminUser } from './types'

const ROLE_COLOURS: Record<string, 'default' | 'primary' | 'secondary' | 'success' | 'info'> = {
  super_admin: 'secondary',
  editor: 'primary',
  revisor: 'primary',
  moderador: 'info',
  premium: 'success',
  trial: 'info',
}

/** The account's roles as chips; the implicit "user" role stays quiet. */
export function RoleChips(_props: { label?: string }) {
  const record = useRecordContext<AdminUser>()
  const translate = useTranslate()
  if (!record) return null
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap" data-testid="role-chips">
      {record.roles.map((role) => (
        <Chip
          key={role}
          size="small"
          label={translate(`vetclube.roles.${role}`, { _: role })}
          color={ROLE_COLOURS[role] ?? 'default'}
          variant={role === 'user' ? 'outlined' : 'filled'}
        />
      ))}
    </Stack>
  )
}
