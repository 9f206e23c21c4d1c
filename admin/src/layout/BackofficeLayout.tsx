import EventIcon from '@mui/icons-material/Event'
import WorkIcon from '@mui/icons-material/Work'
import ExtensionIcon from '@mui/icons-material/Extension'
import SmartToyIcon from '@mui/icons-material/SmartToy'
import { Box } from '@mui/material'
import { AppBar, Layout, Menu, TitlePortal, UserMenu, useGetIdentity, usePermissions, useTranslate, type LayoutProps } from 'react-admin'
import { Logo } from './Logo'

// The agenda is the editorial team's; a moderator's backoffice is the queue.
const AGENDA_ROLES = ['editor', 'revisor', 'super_admin']
// The jobs' applications: the editorial team and recruiters.
const JOB_ROLES = ['editor', 'revisor', 'recrutador', 'super_admin']

function BackofficeMenu() {
  const { permissions } = usePermissions<string[]>()
  const agenda = !!permissions?.some((role) => AGENDA_ROLES.includes(role))
  return (
    <Menu>
      <Menu.DashboardItem />
      <Menu.ResourceItems />
      {agenda && <Menu.Item to="/agenda" primaryText="vetclube.agenda.title" leftIcon={<EventIcon />} />}
      {permissions?.some((role) => JOB_ROLES.includes(role)) && (
        <Menu.Item to="/vagas-candidaturas" primaryText="Candidaturas das vagas" leftIcon={<WorkIcon />} />
      )}
      {/* Plugins and their confinement: the server's operators only. */}
      {permissions?.includes('super_admin') && <Menu.Item to="/plugins" primaryText="vetclube.plugins.title" leftIcon={<ExtensionIcon />} />}
      {/* VetClube IA: usage, costs, cited sources, reported answers. */}
      {permissions?.includes('super_admin') && <Menu.Item to="/ia" primaryText="vetclube.ia.title" leftIcon={<SmartToyIcon />} />}
    </Menu>
  )
}

/**
 * The account button shows the signed-in email; its accessible name must
 * contain that visible text (WCAG 2.5.3), not just "Perfil".
 */
function BackofficeUserMenu() {
  const translate = useTranslate()
  const { identity } = useGetIdentity()
  const label = translate('ra.auth.user_menu')
  return <UserMenu label={identity?.fullName ? `${label}: ${identity.fullName}` : label} />
}

/** The app bar with VetClube's mark; each page's title is its h1. */
function BackofficeAppBar() {
  return (
    <AppBar color="primary" userMenu={<BackofficeUserMenu />}>
      <Box sx={{ display: 'flex', mr: 1 }}>
        <Logo />
      </Box>
      <TitlePortal component="h1" variant="h6" />
    </AppBar>
  )
}

export function BackofficeLayout(props: LayoutProps) {
  // The content column may shrink below its widest table: a wide list
  // scrolls inside its own box, never the whole page sideways.
  return (
    <Layout
      {...props}
      menu={BackofficeMenu}
      appBar={BackofficeAppBar}
      sx={{ '& .RaLayout-content': { minWidth: 0 }, '& .RaList-main': { minWidth: 0 }, '& .RaList-content': { overflowX: 'auto' } }}
    />
  )
}
