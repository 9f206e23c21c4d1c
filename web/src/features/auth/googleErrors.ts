// What a failed Google sign-in says, by error code. The server's callback redirects to
// /login?google_error=<code>&message=<text>; the text is shown only when it is
// one of these forms, so a crafted link cannot put arbitrary words on the page.

export const googleMessages = {
  unauthorized_client: 'Configuração OAuth incorreta...',
  redirect_uri_mismatch: 'URL de redirecionamento não autorizada...',
  access_denied: 'Acesso negado pelo usuário.',
  unexpected: 'Erro inesperado ao fazer login com Google',
} as const

const OTHER_PREFIX = 'Erro ao fazer login com Google: '

/** The pt-BR message for a failed Google sign-in, or null when the query has none. */
export function googleErrorMessage(search: string | URLSearchParams): string | null {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search
  const code = params.get('google_error')
  if (code === null) return null
  const known = googleMessages[code as keyof typeof googleMessages]
  if (known) return known
  const message = params.get('message') ?? ''
  if (message.startsWith(OTHER_PREFIX) && message.length <= 300) return message
  return `${OTHER_PREFIX}${code.slice(0, 100)}`
}

/** Where the 'Entrar com Google' link starts the server-side OIDC flow. */
export function googleStartUrl(returnPath: string): string {
  return `/api/auth/google/start?redirect=${encodeURIComponent(returnPath)}`
}
