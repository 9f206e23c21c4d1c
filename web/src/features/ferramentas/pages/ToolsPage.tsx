import { Link } from 'react-router'
import { Crown } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Card, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { useTools } from '../api'
import { ToolIcon } from '../components/ToolIcon'

/** /ferramentas: every tool the user may see, from GET /api/tools. */
export default function ToolsPage() {
  usePageTitle('Ferramentas')
  const { data: tools, isPending, error } = useTools()
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-6">
      <header>
        <h1 className="text-2xl font-bold">Ferramentas</h1>
        <p className="text-muted-foreground">Calculadoras e recursos para o seu dia a dia na clínica.</p>
      </header>
      {isPending && <Spinner />}
      {/* A failed refresh keeps the list this device already had (kept for offline use). */}
      {error && !tools && <p role="alert" className="text-destructive">{error.message}</p>}
      {tools && tools.length === 0 && <p>Nenhuma ferramenta disponível no momento.</p>}
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {tools?.map((tool) => (
          <li key={tool.id}>
            <Link to={`/ferramentas/${tool.slug}`} className="block h-full rounded-2xl focus-visible:outline-2 focus-visible:outline-ring">
              <Card className="h-full transition-shadow hover:shadow-md">
                <CardHeader>
                  <div className="flex items-start justify-between gap-2">
                    <span className="rounded-xl bg-teal-100 p-2 text-teal-800 dark:bg-teal-900/50 dark:text-teal-100">
                      <ToolIcon name={tool.icon} className="size-6" />
                    </span>
                    {tool.premium && (
                      <Badge variant="warning">
                        <Crown aria-hidden="true" className="size-3" /> Premium
                      </Badge>
                    )}
                  </div>
                  <CardTitle>{tool.name}</CardTitle>
                  <CardDescription>{tool.description}</CardDescription>
                </CardHeader>
              </Card>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  )
}
