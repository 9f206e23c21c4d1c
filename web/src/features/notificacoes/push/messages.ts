// What members read about push notifications (pt-BR, character for character).
export const PUSH_MESSAGES = {
  unsupported: 'Notificações push não são suportadas neste dispositivo',
  denied: 'Permissão para notificações foi negada',
  blocked: 'Notificações foram bloqueadas. Para ativar:',
  unavailable: 'Serviço de notificações temporariamente indisponível. Tente novamente em alguns minutos.',
  network: 'Erro de conectividade. Verifique sua conexão e tente novamente.',
  serviceWorker: 'Erro no Service Worker. Tente recarregar a página.',
  vapidKey: 'Erro na chave VAPID. Tente novamente.',
  enableFailed: 'Erro ao ativar notificações push',
  disableFailed: 'Erro ao desativar notificações push',
  enabled: 'Notificações push ativadas com sucesso!',
  disabled: 'Notificações push desativadas',
  testNeedsSubscription: 'Você precisa estar inscrito nas notificações para testar',
  testFailed: 'Erro ao enviar notificação teste',
  testSent: 'Notificação teste enviada! Verifique se foi recebida.',
} as const

/** 'Erro ao ativar notificações: {message}'. */
export const enableFailedWith = (message: string) => `Erro ao ativar notificações: ${message}`

/** The steps shown under PUSH_MESSAGES.blocked. */
export const BLOCKED_STEPS = [
  'Clique no ícone de cadeado ao lado do endereço do site',
  "Em 'Notificações', selecione 'Permitir'",
  'Recarregue a página',
] as const

/** A push failure whose message is ready to show (pt-BR). */
export class PushError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PushError'
  }
}
