import { lazy, useEffect, useState } from 'react'
import GavelIcon from '@mui/icons-material/Gavel'
import PaymentsIcon from '@mui/icons-material/Payments'
import WebhookIcon from '@mui/icons-material/Webhook'
import HistoryIcon from '@mui/icons-material/History'
import PeopleIcon from '@mui/icons-material/People'
import PermMediaIcon from '@mui/icons-material/PermMedia'
import RedeemIcon from '@mui/icons-material/Redeem'
import CardGiftcardIcon from '@mui/icons-material/CardGiftcard'
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong'
import { Route } from 'react-router-dom'
import { Admin, CustomRoutes, Resource } from 'react-admin'
import { AccessRefusedPage } from './access/AccessRefusedPage'
import { TwoStepEnrolmentPage } from './access/TwoStepEnrolment'
import { AuditList } from './audit/AuditList'
import { fetchContentTypes } from './content/api'
import PrivacyTipIcon from '@mui/icons-material/PrivacyTip'
import { LgpdRequestList } from './lgpd/LgpdRequestList'
import { contentResources } from './content/resources'
import { BackofficeLayout } from './layout/BackofficeLayout'
import { darkTheme, lightTheme } from './layout/theme'
import { authProvider, endSession, fetchSession, mayEnterBackoffice, type SessionUser } from './providers/authProvider'
import { dataProvider } from './providers/dataProvider'
import { i18nProvider } from './providers/i18nProvider'
import { ModerationList } from './moderation'
import { ReferralList, ReferralProgramPage } from './referrals'
import { RedemptionList, RewardCreate, RewardEdit, RewardList } from './rewards'
import { UserList, UserShow } from './users'
import { EventList as BillingEventList, SubscriptionList } from './billing'
import { LoginPage } from './layout/LoginPage'

const Dashboard = lazy(() => import('./dashboard/Dashboard'))
const AgendaPage = lazy(() => import('./agenda/AgendaPage'))
const MediaLibrary = lazy(() => import('./media/MediaLibrary'))
const PluginsPage = lazy(() => import('./plugins/PluginsPage'))
const AiUsagePage = lazy(() => import('./ia/AiUsagePage'))
const JobApplicationsPage = lazy(() => import('./vagas/JobApplicationsPage'))

// Who sees the applications of the jobs they manage (core/jobs decides which).
const JOB_ROLES = ['editor', 'revisor', 'recrutador', 'super_admin']

// Who writes content (reads its types, uploads and picks media): not
// moderators, not recruiters (the content API refuses them).
const CONTENT_ROLES = ['editor', 'revisor', 'super_admin']

/**
 * The resources: one per content type the plugins declare (GET
 * /api/admin/content/types, read once the user is known to be a backoffice
 * member; adding a content plugin needs no edit here), the audit log of every
 * editorial write, users, the community's moderation queue, and the media
 * library (#/media) for those who write content.
 */
async function resources(permissions: string[] | undefined) {
  const types = permissions?.some((role) => CONTENT_ROLES.includes(role)) ? await fetchContentTypes().catch(() => []) : []
  return [
    ...contentResources(types),
    ...(permissions?.some((role) => CONTENT_ROLES.includes(role))
      ? [<Resource key="media" name="media" list={MediaLibrary} icon={PermMediaIcon} options={{ label: 'Biblioteca de mídia' }} recordRepresentation="original_name" />]
      : []),
    <Resource key="audit" name="audit" list={<AuditList types={types} />} icon={HistoryIcon} />,
    <Resource key="users" name="users" list={UserList} show={UserShow} icon={PeopleIcon} recordRepresentation="email" />,
    <Resource key="moderation" name="moderation" list={ModerationList} icon={GavelIcon} recordRepresentation="excerpt" />,
    // Super admins only: referrals, subscriptions (MRR, churn, timelines) and Stripe's webhooks.
    ...(permissions?.includes('super_admin')
      ? [
          <Resource key="referrals" name="referrals" list={ReferralList} icon={RedeemIcon} options={{ label: 'Indicações' }} />,
          <Resource key="rewards" name="rewards" list={RewardList} create={RewardCreate} edit={RewardEdit} icon={CardGiftcardIcon} options={{ label: 'Recompensas' }} recordRepresentation="title" />,
          <Resource key="reward-redemptions" name="reward-redemptions" list={RedemptionList} icon={ReceiptLongIcon} options={{ label: 'Resgates' }} />,
          <Resource key="billing/subscriptions" name="billing/subscriptions" list={SubscriptionList} icon={PaymentsIcon} options={{ label: 'Assinaturas' }} recordRepresentation="email" />,
          <Resource key="billing/events" name="billing/events" list={BillingEventList} icon={WebhookIcon} options={{ label: 'Eventos do Stripe' }} recordRepresentation="type" />,
          <Resource key="lgpd-requests" name="lgpd-requests" list={LgpdRequestList} icon={PrivacyTipIcon} options={{ label: 'Dados dos membros (LGPD)' }} />,
        ]
      : []),
    <CustomRoutes key="routes">
      <Route path="/agenda" element={<AgendaPage />} />
      {permissions?.some((role) => JOB_ROLES.includes(role)) && <Route path="/vagas-candidaturas" element={<JobApplicationsPage />} />}
      {permissions?.includes('super_admin') && <Route path="/plugins" element={<PluginsPage />} />}
      {permissions?.includes('super_admin') && <Route path="/ia" element={<AiUsagePage />} />}
      {permissions?.includes('super_admin') && <Route path="/referral-program" element={<ReferralProgramPage />} />}
    </CustomRoutes>,
  ]
}

type Entry = { state: 'checking' } | { state: 'open' } | { state: 'refused'; user: SessionUser } | { state: 'two-step'; user: SessionUser }

/**
 * Who is at the door: someone already signed in to the app without a
 * backoffice role is refused here, before react-admin, whose failed auth
 * check would sign them out of the app too.
 */
function useEntry(): [Entry, (e: Entry) => void] {
  const [entry, setEntry] = useState<Entry>({ state: 'checking' })
  useEffect(() => {
    let live = true
    fetchSession()
      .then(
        (user) =>
          live &&
          setEntry(
            user?.two_step_pending
              ? { state: 'two-step', user }
              : user && !mayEnterBackoffice(user.roles)
                ? { state: 'refused', user }
                : { state: 'open' },
          ),
      )
      .catch(() => live && setEntry({ state: 'open' }))
    return () => {
      live = false
    }
  }, [])
  return [entry, setEntry]
}

// react-admin routes inside the hash (/backoffice/#/users), so the server only
// ever serves /backoffice/index.html and deep links survive reloads.
export function App() {
  const [entry, setEntry] = useEntry()
  if (entry.state === 'checking') return null
  if (entry.state === 'two-step') {
    return <TwoStepEnrolmentPage email={entry.user.email} onDone={() => window.location.reload()} />
  }
  if (entry.state === 'refused') {
    return (
      <AccessRefusedPage
        email={entry.user.email}
        // Straight to the login page: anywhere else react-admin's
        // unauthenticated catch-all would sign out a second time.
        onOtherAccount={() =>
          void endSession().then(() => {
            window.location.hash = '#/login'
            setEntry({ state: 'open' })
          })
        }
      />
    )
  }
  return (
    <Admin
      title="VetClube Backoffice"
      authProvider={authProvider}
      dataProvider={dataProvider}
      i18nProvider={i18nProvider}
      dashboard={Dashboard}
      loginPage={LoginPage}
      layout={BackofficeLayout}
      theme={lightTheme}
      darkTheme={darkTheme}
      requireAuth
      disableTelemetry
    >
      {resources}
    </Admin>
  )
}
