import { STATUS_CHOICES } from './status'

/**
 * pt-BR names for the codes the editorial API writes into revisions and audit
 * events. An unknown code (a newer server) is shown as it is rather than
 * hidden.
 */
export const ACTION_LABELS: Record<string, string> = {
  create: 'Criado',
  update: 'Editado',
  import: 'Importado',
  restore: 'Revisão restaurada',
  submit: 'Enviado para revisão',
  request_changes: 'Alterações solicitadas',
  approve: 'Aprovado',
  schedule: 'Publicação agendada',
  publish: 'Publicado',
  scheduled_publish: 'Publicado no horário agendado',
  unpublish: 'Despublicado',
  scheduled_unpublish: 'Despublicado no horário agendado',
  schedule_unpublish: 'Saída do ar agendada',
  cancel_unpublish: 'Saída do ar cancelada',
  transition: 'Mudança de estado',
  archive: 'Arquivado',
  discard: 'Alterações descartadas',
  share: 'Compartilhado',
  unshare: 'Compartilhamento removido',
}

export const CHANNEL_LABELS: Record<string, string> = {
  backoffice: 'Backoffice',
  api: 'API',
  import: 'Importação',
  plugin: 'Plugin',
  system: 'Sistema',
}

const STATUS_LABELS: Record<string, string> = Object.fromEntries(STATUS_CHOICES.map((s) => [s.id, s.name]))

export const actionLabel = (code: string) => ACTION_LABELS[code] ?? code
export const channelLabel = (code: string) => CHANNEL_LABELS[code] ?? code
export const statusLabel = (code: string) => STATUS_LABELS[code] ?? code

/** "Em revisão → Aprovado", or just the state reached when there was none before. */
export function transitionLabel(from: string | undefined, to: string): string {
  return from ? `${statusLabel(from)} → ${statusLabel(to)}` : statusLabel(to)
}

export const ACTION_CHOICES = Object.entries(ACTION_LABELS).map(([id, name]) => ({ id, name }))
