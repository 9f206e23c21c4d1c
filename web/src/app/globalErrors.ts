import { toast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api'

/** Newest errors kept for diagnosis: at most 50, so a loop of errors cannot grow memory. */
export const ERROR_QUEUE_MAX = 50

export interface RecordedError {
  message: string
  at: string
  detail?: string
}

const queue: RecordedError[] = []

export function recordedErrors(): readonly RecordedError[] {
  return queue
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`
  if (typeof error === 'string') return error
  try {
    return JSON.stringify(error)
  } catch {
    return String(error)
  }
}

export function recordError(error: unknown, detail?: string): void {
  queue.push({ message: messageOf(error), at: new Date().toISOString(), detail })
  if (queue.length > ERROR_QUEUE_MAX) queue.splice(0, queue.length - ERROR_QUEUE_MAX)
}

const CRITICAL = /chunk|failed to fetch|network ?error|script error|out of memory|dynamically imported module|importing a module script/i

/** Errors only a reload fixes (the user is offered one): chunk, failed to fetch, network error, script error, out of memory. */
export function isCriticalError(error: unknown): boolean {
  if (error instanceof ApiError) return false
  return CRITICAL.test(messageOf(error))
}

/** What the user sees for one uncaught error or rejection (null: stay silent). */
export function reportUncaught(error: unknown): void {
  recordError(error)
  if (isCriticalError(error)) {
    toast({
      title: 'Ocorreu um erro inesperado. Por favor, recarregue a página.',
      variant: 'error',
      action: { label: 'Recarregar', onClick: () => window.location.reload() },
    })
    return
  }
  // Network failures of API calls are explained by the offline banner.
  if (error instanceof ApiError && error.status === 0) return
  toast.error('Erro ao processar requisição. Tente novamente.')
}

/** Installs the window handlers once (main.tsx). */
export function installGlobalErrorHandlers(target: Window = window): () => void {
  const onError = (event: ErrorEvent) => {
    // Resource load errors (img 404s) reach window only when capturing; ignore them here.
    reportUncaught(event.error ?? event.message)
  }
  const onRejection = (event: PromiseRejectionEvent) => {
    if (event.reason instanceof DOMException && event.reason.name === 'AbortError') return
    reportUncaught(event.reason)
  }
  target.addEventListener('error', onError)
  target.addEventListener('unhandledrejection', onRejection)
  return () => {
    target.removeEventListener('error', onError)
    target.removeEventListener('unhandledrejection', onRejection)
  }
}
