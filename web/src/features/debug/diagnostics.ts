import type { RecordedApiError } from '@/lib/apiErrors'

/** Bytes in pt-BR units (1.024 base): "0 B", "1,5 KB", "12,3 MB". */
export function formatBytes(n: number | undefined | null): string {
  if (n == null || !Number.isFinite(n) || n < 0) return 'desconhecido'
  const units = ['B', 'KB', 'MB', 'GB']
  let v = n
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${i === 0 ? v : v.toLocaleString('pt-BR', { maximumFractionDigits: 1 })} ${units[i]}`
}

export interface CacheInfo {
  name: string
  entries: number
  bytes: number
}

export interface Diagnostic {
  at: string
  url: string
  userAgent: string
  build: { revision?: string; built_at?: string; started_at?: string; go_version?: string } | null
  serviceWorker: { state: string; scriptURL?: string; waiting: boolean }
  caches: CacheInfo[]
  storage: { usage?: number; quota?: number }
  notificationPermission: string
  pushSubscribed: boolean | null
  online: boolean
  lastProbe: { at: string; ok: boolean } | null
  user: { id?: string; roles: string[]; trial?: string }
  errors: RecordedApiError[]
}

/** The plain-text report 'Copiar diagnóstico' puts on the clipboard, for a support message. */
export function diagnosticText(d: Diagnostic): string {
  const lines = [
    `Diagnóstico VetClube — ${d.at}`,
    `Página: ${d.url}`,
    `Navegador: ${d.userAgent}`,
    `Versão: ${d.build?.revision ?? 'desconhecida'}${d.build?.built_at ? ` (build ${d.build.built_at})` : ''}`,
    `Service worker: ${d.serviceWorker.state}${d.serviceWorker.waiting ? ' (atualização aguardando)' : ''}${d.serviceWorker.scriptURL ? ` ${d.serviceWorker.scriptURL}` : ''}`,
    `Caches: ${d.caches.length === 0 ? 'nenhum' : d.caches.map((c) => `${c.name} (${c.entries} itens, ${formatBytes(c.bytes)})`).join('; ')}`,
    `Armazenamento: ${formatBytes(d.storage.usage)} de ${formatBytes(d.storage.quota)}`,
    `Notificações: ${d.notificationPermission}; push: ${d.pushSubscribed == null ? 'indisponível' : d.pushSubscribed ? 'inscrito' : 'não inscrito'}`,
    `Conexão: ${d.online ? 'online' : 'offline'}${d.lastProbe ? `; última verificação ${d.lastProbe.at} (${d.lastProbe.ok ? 'ok' : 'falhou'})` : ''}`,
    `Conta: ${d.user.id ?? '—'}; funções: ${d.user.roles.join(', ') || '—'}${d.user.trial ? `; teste: ${d.user.trial}` : ''}`,
    `Últimos erros da API (${d.errors.length}):`,
    ...d.errors.map((e) => `  ${e.at} ${e.method} ${e.path} → ${e.status} ${e.code}${e.requestId ? ` [request id ${e.requestId}]` : ''}: ${e.message}`),
  ]
  return lines.join('\n')
}

/** Service worker state in pt-BR. */
export function swStateLabel(state: string): string {
  return (
    {
      none: 'não registrado',
      unsupported: 'não suportado neste navegador',
      installing: 'instalando',
      installed: 'instalado (aguardando)',
      activating: 'ativando',
      activated: 'ativo',
      redundant: 'substituído',
    } as Record<string, string>
  )[state] ?? state
}
