import { ExternalLink, ShieldCheck } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { buttonClasses } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { usePageTitle } from '@/lib/usePageTitle'
import { hasRole, useAuth } from '@/lib/session/AuthProvider'
import { AdminAccessDenied } from '../components/AdminAccessDenied'
import { useContentTypes } from '@/features/conteudo'
import { ADMIN_SECTIONS, BACKOFFICE_ROLES, BACKOFFICE_URL, backofficeContentURL, type AdminSection } from '../sections'

/**
 * /admin: the entry point of the Admin menu. The editing screens live in the
 * react-admin backoffice, a separate app under /backoffice/, so this page
 * routes super admins, editors and reviewers there (one area per content type
 * the plugins declare) and tells everyone else the area is closed. The API
 * enforces the roles either way (casbin); this is only the way in.
 */
export default function AdminHomePage() {
  usePageTitle('Painel Administrativo')
  const { user } = useAuth()
  const types = useContentTypes()

  if (!BACKOFFICE_ROLES.some((role) => hasRole(user, role))) return <AdminAccessDenied />
  const superAdmin = hasRole(user, 'super_admin')
  const moderator = superAdmin || hasRole(user, 'moderador')
  // A moderator only moderates: the content types are the editorial team's.
  const editorial = superAdmin || hasRole(user, 'editor') || hasRole(user, 'revisor')
  const contentSections: AdminSection[] = (editorial ? (types.data ?? []) : []).map((t) => ({
    title: t.plural,
    description: `Escreva, revise, agende e publique ${t.plural.toLowerCase()}.`,
    href: backofficeContentURL(t.id),
  }))
  const sections = [...contentSections, ...ADMIN_SECTIONS.filter(
    (s) => (superAdmin || !s.superAdminOnly) && (moderator || !s.moderatorsOnly) && (editorial || !s.editorialOnly),
  )]

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 py-6">
      <header className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-1">
          <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Painel Administrativo</h1>
          <p className="text-sm text-muted-foreground">O conteúdo e as contas do VetClube são geridos no backoffice.</p>
        </div>
        <a href={BACKOFFICE_URL} className={buttonClasses('primary')}>
          <ShieldCheck aria-hidden="true" className="h-4 w-4" />
          Abrir backoffice
        </a>
      </header>
      <ul className="grid gap-4 sm:grid-cols-2" aria-label="Áreas administrativas">
        {sections.map(({ title, description, href }) => (
          <li key={title}>
            <Card className="flex h-full flex-col">
              <CardHeader>
                <CardTitle>{title}</CardTitle>
                <CardDescription>{description}</CardDescription>
              </CardHeader>
              <CardContent className="mt-auto">
                {href ? (
                  <a href={href} className={buttonClasses('outline', 'sm')} aria-label={`Gerenciar ${title} no backoffice`}>
                    Gerenciar
                    <ExternalLink aria-hidden="true" className="h-4 w-4" />
                  </a>
                ) : (
                  <Badge variant="secondary">Em breve</Badge>
                )}
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  )
}
