import { Component, type ErrorInfo, type ReactNode } from 'react'
import { isRouteErrorResponse, useLocation, useNavigate, useRouteError } from 'react-router'
import { Button } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { recordError } from './globalErrors'
import NotFoundPage from '@/components/NotFoundPage'

function ErrorCard({ title, text, onRetry }: { title: string; text: string; onRetry: () => void }) {
  return (
    <div role="alert" className="flex min-h-[60vh] items-center justify-center p-6">
      <Card className="flex max-w-md flex-col items-center gap-4 p-8 text-center">
        <h1 className="text-xl font-bold">{title}</h1>
        <p className="text-muted-foreground">{text}</p>
        <div className="flex flex-wrap justify-center gap-2">
          <Button onClick={onRetry}>Tentar Novamente</Button>
          <Button variant="outline" onClick={() => window.location.reload()}>
            Recarregar Página
          </Button>
        </div>
      </Card>
    </div>
  )
}

export function GenericErrorCard({ onRetry }: { onRetry: () => void }) {
  return <ErrorCard title="Algo deu errado" text="Ocorreu um erro inesperado. Por favor, tente recarregar a página." onRetry={onRetry} />
}

/** Catches render errors outside the router (providers, toaster). */
export class AppErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  state = { error: null as unknown }

  static getDerivedStateFromError(error: unknown) {
    return { error }
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    recordError(error, info.componentStack ?? undefined)
  }

  render() {
    if (this.state.error) return <GenericErrorCard onRetry={() => this.setState({ error: null })} />
    return this.props.children
  }
}

/** Route errorElement: 404 responses get the not-found page, anything else the error card. */
export function RouteErrorPage() {
  const error = useRouteError()
  const navigate = useNavigate()
  const location = useLocation()
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />
  recordError(error)
  return <GenericErrorCard onRetry={() => navigate(location.pathname + location.search + location.hash, { replace: true })} />
}

/** errorElement of lazily loaded admin screens: a failed chunk load offers a retry instead of a blank page. */
export function PageLoadErrorPage() {
  const navigate = useNavigate()
  const location = useLocation()
  return (
    <ErrorCard
      title="Erro ao Carregar Página"
      text="Não foi possível carregar esta página. Verifique sua conexão e tente novamente."
      onRetry={() => navigate(location.pathname + location.search + location.hash, { replace: true })}
    />
  )
}
