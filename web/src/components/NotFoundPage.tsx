import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/Button'
import { usePageTitle } from '@/lib/usePageTitle'

/** Any path no route claims. */
export default function NotFoundPage() {
  usePageTitle('Página não encontrada')
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 bg-background px-6 text-center">
      <p className="text-6xl font-extrabold text-primary">404</p>
      <h1 className="text-2xl font-bold">Página não encontrada</h1>
      <p className="max-w-md text-muted-foreground">O endereço que você acessou não existe ou foi movido.</p>
      <Link to="/" className={buttonClasses('primary')}>
        Voltar ao início
      </Link>
    </main>
  )
}
