import type { Status } from './types'

/** The editorial states with their pt-BR names (the API's status_label agrees). */
export const STATUS_CHOICES: { id: Status; name: string }[] = [
  { id: 'rascunho', name: 'Rascunho' },
  { id: 'em_revisao', name: 'Em revisão' },
  { id: 'alteracoes_solicitadas', name: 'Alterações solicitadas' },
  { id: 'aprovado', name: 'Aprovado' },
  { id: 'agendado', name: 'Agendado' },
  { id: 'publicado', name: 'Publicado' },
  { id: 'arquivado', name: 'Arquivado' },
]

export const STATUS_COLOR: Record<Status, 'default' | 'info' | 'warning' | 'success' | 'secondary' | 'error'> = {
  rascunho: 'default',
  em_revisao: 'info',
  alteracoes_solicitadas: 'warning',
  aprovado: 'secondary',
  agendado: 'info',
  publicado: 'success',
  arquivado: 'default',
}
