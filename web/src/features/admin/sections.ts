export const BACKOFFICE_URL = '/backoffice/'

/** Who may enter the backoffice: content editors and reviewers, community moderators, and super admins. */
export const BACKOFFICE_ROLES = ['editor', 'revisor', 'moderador', 'super_admin'] as const

/** The backoffice page of a content type (react-admin resource content/<type>). */
export function backofficeContentURL(typeId: string): string {
  return `${BACKOFFICE_URL}#/content/${encodeURIComponent(typeId)}`
}
/** react-admin routes inside the hash, so deep links survive reloads. */
export const BACKOFFICE_USERS_URL = `${BACKOFFICE_URL}#/users`
export const BACKOFFICE_MODERATION_URL = `${BACKOFFICE_URL}#/moderation`
export const BACKOFFICE_MEDIA_URL = `${BACKOFFICE_URL}#/media`

/**
 * The admin areas under /admin besides the content types (listed from the
 * plugins' manifests) and where each one is managed. Areas with an `href`
 * work in the react-admin backoffice; the others arrive with their features.
 */
export interface AdminSection {
  title: string
  description: string
  href?: string
  /** Only super admins manage it. */
  superAdminOnly?: boolean
  /** Only community moderators (and super admins) manage it. */
  moderatorsOnly?: boolean
  /** Only the editorial team (editors, reviewers and super admins) manages it. */
  editorialOnly?: boolean
}

export const ADMIN_SECTIONS: AdminSection[] = [
  {
    title: 'Usuários',
    description: 'Consulte contas, veja quem confirmou o email e conceda ou revogue papéis.',
    href: BACKOFFICE_USERS_URL,
    superAdminOnly: true,
  },
  {
    title: 'Moderação da comunidade',
    description: 'Publicações e comentários denunciados: ocultar, restaurar ou remover.',
    href: BACKOFFICE_MODERATION_URL,
    moderatorsOnly: true,
  },
  {
    title: 'Biblioteca de mídia',
    description: 'Vídeos, imagens e PDFs enviados: processamento, uso e exclusão.',
    href: BACKOFFICE_MEDIA_URL,
    editorialOnly: true,
  },
  {
    title: 'Candidaturas das vagas',
    description: 'Candidaturas recebidas por vaga: currículo, status, nota e recrutadores.',
    href: `${BACKOFFICE_URL}#/vagas-candidaturas`,
    editorialOnly: true,
  },
]

// The backoffice's content type of each /admin/cursos area.
const COURSE_AREAS: Record<string, string> = { instrutores: 'cursos-instrutores', categorias: 'cursos-categorias' }

/**
 * The backoffice page for a path under /admin/cursos (given without that
 * prefix): 'novo' creates, ':id/editar' and ':id/preview' open the item (its
 * edit page has 'Pré-visualizar'), ':id/gerenciar' the curriculum manager, and
 * the same for instrutores and categorias.
 */
export function backofficeTarget(rest: string): string {
  const parts = rest.split('/').filter(Boolean)
  let type = 'cursos'
  if (parts[0] && COURSE_AREAS[parts[0]]) type = COURSE_AREAS[parts.shift()!]!
  const base = backofficeContentURL(type)
  const [first, second] = parts
  if (!first) return base
  if (first === 'novo' || first === 'nova') return `${base}/create`
  const id = encodeURIComponent(first)
  if (second === 'gerenciar' && type === 'cursos') return `${base}/${id}/gerenciar`
  return `${base}/${id}`
}
