import { ShieldAlert } from 'lucide-react'
import { Link } from 'react-router'
import { buttonClasses } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'

/** What a signed-in user without a backoffice role sees under /admin. */
export function AdminAccessDenied() {
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 py-6">
      <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Painel Administrativo</h1>
      <Card role="alert" className="flex flex-col items-center gap-4 p-8 text-center md:p-12">
        <ShieldAlert aria-hidden="true" className="h-10 w-10 text-destructive" />
        <p className="text-lg font-semibold">Acesso restrito</p>
        <p className="max-w-md text-sm text-muted-foreground">Esta área é exclusiva para editores, revisores, moderadores e administradores do VetClube.</p>
        <Link to="/" className={buttonClasses('primary')}>
          Voltar ao início
        </Link>
      </Card>
    </div>
  )
}
