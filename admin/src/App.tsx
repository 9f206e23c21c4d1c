import { lazy } from 'react'
import PeopleIcon from '@mui/icons-material/People'
import { Admin, Resource } from 'react-admin'
import { authProvider } from './providers/authProvider'
import { dataProvider } from './providers/dataProvider'
import { i18nProvider } from './providers/i18nProvider'
import { UserList, UserShow } from './users'

const Dashboard = lazy(() => import('./dashboard/Dashboard'))

// react-admin routes inside the hash (/backoffice/#/users), so the server only
// ever serves /backoffice/index.html and deep links survive reloads.
export function App() {
  return (
    <Admin
      title="VetClube Backoffice"
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      dashboard={Dashboard}
      requireAuth
      disableTelemetry
    >
      <Resource name="users" list={UserList} show={UserShow} icon={PeopleIcon} recordRepresentation="email" />
    </Admin>
  )
}
