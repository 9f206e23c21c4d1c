import { Construction } from 'lucide-react'
import { Link } from 'react-router'
import { Badge } from '@/components/ui/Badge'
import { buttonClasses } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { usePageTitle } from '@/lib/usePageTitle'

/** Shown, inside the layout, by routes whose feature is not built yet. */
export function ComingSoonPage({ title }: { title: string }) {
  usePageTitle(title)
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 py-6">
      <h1 className="text-2xl font-bold tracking-tight md:text-3xl">{title}</h1>
      <Card className="flex flex-col items-center gap-4 p-8 text-center md:p-12">
        <span className="flex h-16 w-16 items-center justify-center rounded-full bg-accent text-accent-foreground">
          <Construction aria-hidden="true" className="h-8 w-8" />
        </span>
        <Badge variant="secondary">Em breve</Badge>
        <p className="text-lg font-semibold">Estamos preparando esta área para você.</p>
        <p className="max-w-md text-sm text-muted-foreground">
          Esta seção do VetClube está em construção e estará disponível em breve. Enquanto isso, explore o restante da plataforma.
        </p>
        <Link to="/" className={buttonClasses('primary')}>
          Voltar ao início
        </Link>
      </Card>
    </div>
  )
}
