export const BACKOFFICE_URL = '/backoffice/'

/** Who may enter the backoffice: content editors and reviewers, and super admins. */
export const BACKOFFICE_ROLES = ['editor', 'revisor', 'super_admin'] as const

/** The backoffice page of a content type (react-admin resource content/<type>). */
export function backofficeContentURL(typeId: string): string {
  return `${BACKOFFICE_URL}#/content/${encodeURIComponent(typeId)}`
}
/** react-admin routes inside the hash, so deep links survive reloads. */
export const BACKOFFICE_USERS_URL = `${BACKOFFICE_URL}#/users`

/**
 * The admin areas under /admin and where each one is managed today. Areas with
 * an `href` already work in the react-admin backoffice; the others arrive
 * with their feature issues.
 */
export interface AdminSection {
  title: string
  description: string
  href?: string
  /** Only super admins manage it. */
  superAdminOnly?: boolean
}

export const ADMIN_SECTIONS: AdminSection[] = [
  {
    title: 'Usuários',
    description: 'Consulte contas, veja quem confirmou o email e conceda ou revogue papéis.',
    href: BACKOFFICE_USERS_URL,
    superAdminOnly: true,
  },
  { title: 'Cursos', description: 'Cursos, aulas, instrutores e categorias.' },
  { title: 'Vídeos e conteúdos exclusivos', description: 'Vídeos, biblioteca e conteúdos para assinantes.' },
  { title: 'Vagas de empregos', description: 'Oportunidades publicadas para a comunidade.' },
]
