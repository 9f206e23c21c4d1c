import { useMediaQuery, type Theme } from '@mui/material'
import {
  BooleanField,
  Datagrid,
  DateField,
  FunctionField,
  List,
  SearchInput,
  SelectInput,
  SimpleList,
  TextField,
} from 'react-admin'
import { RoleChips } from './RoleChips'
import { roleChoices } from './roleChoices'
import type { AdminUser } from './types'

const userFilters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Buscar por nome ou email" />,
  <SelectInput key="role" source="role" label="resources.users.fields.role" choices={roleChoices} alwaysOn emptyText="Todos" />,
]

export function fullName(user: AdminUser): string {
  return `${user.first_name} ${user.last_name}`.trim()
}

// No export button: the API serves at most 100 rows a page, so react-admin's
// exporter would silently cut the list short.
export default function UserList() {
  // A phone gets one line per account instead of a table wider than the screen.
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'))
  return (
    <List filters={userFilters} sort={{ field: 'created_at', order: 'DESC' }} perPage={25} exporter={false}>
      {phone ? (
        <SimpleList<AdminUser>
          primaryText={(u) => u.email}
          secondaryText={(u) => fullName(u)}
          tertiaryText={<RoleChips />}
          linkType="show"
        />
      ) : (
        <Datagrid rowClick="show" bulkActionButtons={false}>
          <TextField source="email" />
          <FunctionField<AdminUser> label="resources.users.fields.full_name" sortable={false} render={fullName} />
          <RoleChips label="resources.users.fields.roles" />
          <BooleanField source="email_confirmed" sortable={false} />
          <DateField source="created_at" locales="pt-BR" showTime />
        </Datagrid>
      )}
    </List>
  )
}
