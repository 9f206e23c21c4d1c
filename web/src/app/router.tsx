import { createBrowserRouter, type RouteObject } from 'react-router'
import { FullScreenLoader } from '@/components/ui/Spinner'
import { RequireAuth } from './Guard'
import { PageLoadErrorPage, RouteErrorPage } from './ErrorBoundary'
import { lazyPage, retryImport } from '@/lib/lazy'
import { RootShell } from './RootShell'
import NotFoundPage from '@/components/NotFoundPage'

// The layout loads with the first signed-in route, so visitors on /landing or
// /login never download it.
const loadLayout = () => retryImport(() => import('./layout/AppLayout'))

/** A guarded /admin route managed in the backoffice: editors are sent to `url` there. */
function inBackoffice(path: string, title: string, url: string): RouteObject {
  return {
    path,
    handle: { title },
    lazy: async () => {
      const { default: Page } = await retryImport(() => import('@/features/admin/pages/BackofficeRedirectPage'))
      return { element: <Page to={url} /> }
    },
  }
}

// A feature's page is
//   { path: 'x', lazy: lazyPage(() => import('@/features/<feature>/pages/XPage')) }
// (default export = the page component). Never drop or rename a path: links
// already shared and installed shortcuts point at them.

/** Tools under /ferramentas/. */
const toolRoutes: RouteObject[] = [
  // Plugin tools: the catalogue, and any tool by slug (form tools through
  // the generic renderer, custom ones through their plugin's own view in
  // plugins/<id>/web/, which may route the rest of the path itself: the
  // simulado's /ferramentas/simulado-vet/resultado/<attempt>). A tool the
  // platform announces but whose plugin is not loaded shows 'Em breve'.
  { path: '/ferramentas', lazy: lazyPage(() => import('@/features/ferramentas/pages/ToolsPage')) },
  { path: '/ferramentas/:slug/*', lazy: lazyPage(() => import('@/features/ferramentas/pages/ToolPage')) },
]

/** Admin screens under /admin; the full backoffice lives at /backoffice/. */
const adminRoutes: RouteObject[] = [
  {
    path: '/admin',
    handle: { title: 'Painel Administrativo' },
    lazy: lazyPage(() => import('@/features/admin/pages/AdminHomePage')),
    errorElement: <PageLoadErrorPage />,
  },
  { path: '/admin/usuarios', handle: { title: 'Usuários' }, lazy: lazyPage(() => import('@/features/admin/pages/AdminUsersPage')) },
  // Courses, their categories and instructors are managed in the backoffice.
  {
    path: '/admin/cursos/*',
    handle: { title: 'Cursos' },
    lazy: lazyPage(() => import('@/features/admin/pages/BackofficeRedirectPage')),
  },
  // Exclusive videos are the backoffice's "videos" content type; uploads live in its media library.
  inBackoffice('/admin/gerenciador/videos', 'Gerenciador de Vídeos', '/backoffice/#/content/videos'),
  inBackoffice('/admin/gerenciador/conteudos-exclusivos/videos', 'Vídeos Exclusivos', '/backoffice/#/content/videos'),
  inBackoffice('/admin/gerenciador/conteudos-exclusivos/biblioteca', 'Biblioteca de Conteúdos Exclusivos', '/backoffice/#/media'),
  // Jobs are the backoffice's "vagas" content type; recruiters go to the applications.
  { path: '/admin/vagas-de-empregos', handle: { title: 'Vagas de Empregos' }, lazy: lazyPage(() => import('@/features/admin/pages/AdminJobsPage')) },
]

/** Signed-in screens, rendered inside the layout. */
const guardedRoutes: RouteObject[] = [
  { index: true, lazy: lazyPage(() => import('@/features/home/HomePage')) },
  // The member's profile.
  { path: '/profile', lazy: lazyPage(() => import('@/features/profile/pages/ProfilePage')) },
  { path: '/profile/edit', lazy: lazyPage(() => import('@/features/profile/pages/ProfileEditPage')) },
  { path: '/debug', handle: { title: 'Diagnóstico' }, lazy: lazyPage(() => import('@/features/debug/DebugPage')) },
  // Community feed and the comments modal (?post={id}).
  { path: '/community', handle: { title: 'Comunidade' }, lazy: lazyPage(() => import('@/features/comunidade/pages/CommunityPage')) },
  { path: '/connections', handle: { title: 'Conexões' }, lazy: lazyPage(() => import('@/features/conexoes/pages/ConnectionsPage')) },
  // Courses.
  { path: '/cursos', handle: { title: 'Cursos' }, lazy: lazyPage(() => import('@/features/cursos/pages/CoursesPage')) },
  { path: '/cursos/:id', handle: { title: 'Curso' }, lazy: lazyPage(() => import('@/features/cursos/pages/CoursePage')) },
  { path: '/cursos/:id/aula/:lessonId', handle: { title: 'Aula' }, lazy: lazyPage(() => import('@/features/cursos/pages/LessonPage')) },
  { path: '/cursos/:id/certificado', handle: { title: 'Certificado' }, lazy: lazyPage(() => import('@/features/cursos/pages/CertificatePage')) },
  // The #videoId fragment opens one video on the same page.
  { path: '/conteudos-exclusivos', handle: { title: 'Conteúdos Exclusivos' }, lazy: lazyPage(() => import('@/features/videos/pages/VideosPage')) },
  { path: '/desafios', handle: { title: 'Desafios' }, lazy: lazyPage(() => import('@/features/desafios/pages/ChallengesPage')) },
  { path: '/desafios/:slug', handle: { title: 'Desafio' }, lazy: lazyPage(() => import('@/features/desafios/pages/ChallengePage')) },
  { path: '/eventos', handle: { title: 'Eventos' }, lazy: lazyPage(() => import('@/features/eventos/pages/EventsPage')) },
  { path: '/eventos/:slug', handle: { title: 'Evento' }, lazy: lazyPage(() => import('@/features/eventos/pages/EventPage')) },
  { path: '/vetclube-ia', handle: { title: 'VetClube IA' }, lazy: lazyPage(() => import('@/features/ia/pages/IaPage')) },
  { path: '/oportunidades', handle: { title: 'Oportunidades' }, lazy: lazyPage(() => import('@/features/oportunidades/pages/OpportunitiesPage')) },
  { path: '/oportunidades/candidaturas', handle: { title: 'Minhas candidaturas' }, lazy: lazyPage(() => import('@/features/oportunidades/pages/MyApplicationsPage')) },
  { path: '/oportunidades/:slug', handle: { title: 'Vaga' }, lazy: lazyPage(() => import('@/features/oportunidades/pages/JobPage')) },
  { path: '/pontos', lazy: lazyPage(() => import('@/features/pontos/PontosPage')), handle: { title: 'VetCoins' } },
  ...toolRoutes,
  { path: '/indique-e-ganhe', handle: { title: 'Indique e Ganhe' }, lazy: lazyPage(() => import('@/features/indique/pages/IndiquePage')) },
  { path: '/pricing', handle: { title: 'Planos' }, lazy: lazyPage(() => import('@/features/subscription/pages/PricingPage')) },
  // Subscription and payments (one page for both subscription paths).
  { path: '/subscription', handle: { title: 'Minha Assinatura' }, lazy: lazyPage(() => import('@/features/subscription/pages/SubscriptionPage')) },
  { path: '/subscription-management', handle: { title: 'Minha Assinatura' }, lazy: lazyPage(() => import('@/features/subscription/pages/SubscriptionPage')) },
  { path: '/payment-monitoring', handle: { title: 'Monitoramento de Pagamentos' }, lazy: lazyPage(() => import('@/features/subscription/pages/PaymentMonitoringPage')) },
  { path: '/payment-status', handle: { title: 'Status do Pagamento' }, lazy: lazyPage(() => import('@/features/subscription/pages/PaymentStatusPage')) },
  { path: '/test-stripe', handle: { title: 'Teste de Pagamento' }, lazy: lazyPage(() => import('@/features/subscription/pages/TestStripePage')) },
  { path: '/push-test', handle: { title: 'Teste de Notificações' }, lazy: lazyPage(() => import('@/features/notificacoes/pages/PushTestPage')) },
  ...adminRoutes,
]

export const routes: RouteObject[] = [
  {
    id: 'root',
    element: <RootShell />,
    HydrateFallback: () => <FullScreenLoader />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        children: [
          // Public, no layout.
          { path: '/landing', lazy: lazyPage(() => import('@/features/landing/LandingPage')) },
          // Sign-in.
          { path: '/login', lazy: lazyPage(() => import('@/features/auth/pages/LoginPage')) },
          { path: '/login/codigo', lazy: lazyPage(() => import('@/features/auth/pages/LoginCodePage')) },
          { path: '/register', lazy: lazyPage(() => import('@/features/auth/pages/RegisterPage')) },
          // A member's referral link: keeps the code, counts the click, goes on to sign-up.
          { path: '/i/:code', lazy: lazyPage(() => import('@/features/indique/pages/InviteLinkPage')) },
          { path: '/forgot-password', lazy: lazyPage(() => import('@/features/auth/pages/ForgotPasswordPage')) },
          { path: '/redefinir-senha', lazy: lazyPage(() => import('@/features/auth/pages/ResetPasswordPage')) },
          { path: '/confirmar-email', lazy: lazyPage(() => import('@/features/auth/pages/ConfirmEmailPage')) },
          { path: '/email/confirmar', lazy: lazyPage(() => import('@/features/auth/pages/EmailChangeConfirmPage')) },
          { path: '/email/desfazer', lazy: lazyPage(() => import('@/features/auth/pages/EmailChangeUndoPage')) },
          { path: '/register-premium', lazy: lazyPage(() => import('@/features/auth/pages/RegisterPremiumPage')) },
          { path: '/subscription-success', lazy: lazyPage(() => import('@/features/subscription/pages/SubscriptionSuccessPage')) },
          // Certificate verification: public, no sign-in, no layout.
          { path: '/certificados/:code', lazy: lazyPage(() => import('@/features/cursos/pages/PublicCertificatePage')) },
          // A draft's signed preview link (content platform), outside the layout.
          { path: '/pre-visualizacao/:token', lazy: lazyPage(() => import('@/features/conteudo/PreviewPage')) },
          // Public, but signed-in users keep their layout around it.
          {
            lazy: async () => ({ Component: (await loadLayout()).OptionalLayout }),
            children: [{ path: '/profile/:userId', lazy: lazyPage(() => import('@/features/profile/pages/PublicProfilePage')) }],
          },
          {
            element: <RequireAuth />,
            children: [{ path: '/', lazy: async () => ({ Component: (await loadLayout()).AppLayout }), children: guardedRoutes }],
          },
          // Content types' pages (/noticias-veterinarias, ...) come from the
          // plugins' declarations; any other path is not found.
          { path: '*', lazy: lazyPage(() => import('./ContentRoutes')), errorElement: <NotFoundPage /> },
        ],
      },
    ],
  },
]

export function createAppRouter() {
  return createBrowserRouter(routes)
}
