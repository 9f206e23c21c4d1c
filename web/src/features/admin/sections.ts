/**
 * The admin areas of spec §2 and where each one is managed today. Areas with a
 * `backofficePath` already work in the react-admin backoffice (/backoffice/);
 * the others arrive with their feature issues.
 */
export interface AdminSection {
  title: string
  description: string
  /** Hash route inside the backoffice, when the area exists there. */
  backofficePath?: string
}

export const BACKOFFICE_URL = '/backoffice/'

export const ADMIN_SECTIONS: AdminSection[] = [
  {
    title: 'Usuários',
    description: 'Consulte contas, veja quem confirmou o email e conceda ou revogue papéis.',
    backofficePath: '#/users',
  },
  { title: 'Cursos', description: 'Cursos, aulas, instrutores e categorias.' },
  { title: 'Vídeos e conteúdos exclusivos', description: 'Vídeos, biblioteca e conteúdos para assinantes.' },
  { title: 'Vagas de empregos', description: 'Oportunidades publicadas para a comunidade.' },
]

export function backofficeLink(section: AdminSection): string | undefined {
  return section.backofficePath ? BACKOFFICE_URL + section.backofficePath : undefined
}
