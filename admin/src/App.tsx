import { lazy } from 'react'
import EventIcon from '@mui/icons-material/Event'
import PeopleIcon from '@mui/icons-material/People'
import { Route } from 'react-router-dom'
import { Admin, CustomRoutes, Layout, Menu, Resource, type LayoutProps } from 'react-admin'
import { fetchContentTypes } from './content/api'
import { contentResources } from './content/resources'
import { authProvider, mayEnterBackoffice } from './providers/authProvider'
import { dataProvider } from './providers/dataProvider'
import { i18nProvider } from './providers/i18nProvider'
import { UserList, UserShow } from './users'

const Dashboard = lazy(() => import('./dashboard/Dashboard'))
const AgendaPage = lazy(() => import('./agenda/AgendaPage'))

function BackofficeMenu() {
  return (
    <Menu>
      <Menu.DashboardItem />
      <Menu.ResourceItems />
      <Menu.Item to="/agenda" primaryText="vetclube.agenda.title" leftIcon={<EventIcon />} />
    </Menu>
  )
}

function BackofficeLayout(props: LayoutProps) {
  return <Layout {...props} menu={BackofficeMenu} />
}

/**
 * The resources: users, plus one per content type the plugins declare
 * (GET /api/admin/content/types), read once the user is known to be a
 * backoffice member; adding a content plugin needs no edit here.
 */
async function resources(permissions: string[] | undefined) {
  const types = mayEnterBackoffice(permissions) ? await fetchContentTypes().catch(() => []) : []
  return [
    ...contentResources(types),
    <Resource key="users" name="users" list={UserList} show={UserShow} icon={PeopleIcon} recordRepresentation="email" />,
    <CustomRoutes key="routes">
      <Route path="/agenda" element={<AgendaPage />} />
    </CustomRoutes>,
  ]
}

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
      layout={BackofficeLayout}
      requireAuth
      disableTelemetry
    >
      {resources}
    </Admin>
  )
}
