export const BACKOFFICE_URL = '/backoffice/'
/** react-admin routes inside the hash, so deep links survive reloads. */
export const BACKOFFICE_USERS_URL = `${BACKOFFICE_URL}#/users`

/**
 * The admin areas of spec §2 and where each one is managed today. Areas with
 * an `href` already work in the react-admin backoffice; the others arrive
 * with their feature issues.
 */
export interface AdminSection {
  title: string
  description: string
  href?: string
}

export const ADMIN_SECTIONS: AdminSection[] = [
  {
    title: 'Usuários',
    description: 'Consulte contas, veja quem confirmou o email e conceda ou revogue papéis.',
    href: BACKOFFICE_USERS_URL,
  },
  { title: 'Cursos', description: 'Cursos, aulas, instrutores e categorias.' },
  { title: 'Vídeos e conteúdos exclusivos', description: 'Vídeos, biblioteca e conteúdos para assinantes.' },
  { title: 'Vagas de empregos', description: 'Oportunidades publicadas para a comunidade.' },
]
