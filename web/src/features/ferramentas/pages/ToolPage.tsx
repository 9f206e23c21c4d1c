import { Suspense } from 'react'
import { Link, useParams } from 'react-router'
import { ArrowLeft, Crown } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { buttonClasses } from '@/components/ui/Button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import NotFoundPage from '@/components/NotFoundPage'
import { ComingSoonPage } from '@/components/ComingSoonPage'
import { useTools } from '../api'
import { FormTool } from '../components/FormTool'
import { ToolIcon } from '../components/ToolIcon'
import { customView } from '../customViews'

// The tools VetClube announces in its menus and landing page: until their
// plugin is loaded, their address shows 'Em breve' instead of 'not found'.
// A loaded plugin with the same slug takes the address over by itself.
const ANNOUNCED: Record<string, string> = {
  'prontuario-vet': 'Prontuário Vet',
  'assistente-de-carreira': 'Assistente de Carreira',
  'quiz-area': 'Quiz de Área',
  'social-media-ia': 'Social Media IA',
  'simulado-vet': 'Simulado Vet',
  doencas: 'Doenças',
  'diagnostico-imagem': 'Diagnóstico por Imagem',
}

/**
 * /ferramentas/<slug>/*: a form tool through the generic renderer, or a
 * custom view, which routes the rest of the path itself.
 */
export default function ToolPage() {
  const { slug } = useParams()
  const { data: tools, isPending, error } = useTools()
  const tool = tools?.find((t) => t.slug === slug)
  usePageTitle(tool?.name)

  if (isPending) return <Spinner />
  // A failed refresh keeps the list this device already had (kept for offline use).
  if (!tools) return <p role="alert" className="text-destructive">{error?.message}</p>
  const announced = slug ? ANNOUNCED[slug] : undefined
  if (!tool && announced) return <ComingSoonPage title={announced} />
  if (!tool) return <NotFoundPage />

  const View = tool.ui_kind === 'custom' ? customView(tool.id) : undefined
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6">
      <Link to="/ferramentas" className={buttonClasses('link', 'sm', 'self-start px-0 print:hidden')}>
        <ArrowLeft aria-hidden="true" className="size-4" /> Ferramentas
      </Link>
      <header className="flex items-center gap-3">
        <span className="rounded-xl bg-teal-100 p-2 text-teal-800 print:hidden dark:bg-teal-900/50 dark:text-teal-100">
          <ToolIcon name={tool.icon} className="size-7" />
        </span>
        <div>
          <h1 className="flex items-center gap-2 text-2xl font-bold">
            {tool.name}
            {tool.premium && (
              <Badge variant="warning">
                <Crown aria-hidden="true" className="size-3" /> Premium
              </Badge>
            )}
          </h1>
          <p className="text-muted-foreground print:hidden">{tool.description}</p>
        </div>
      </header>
      {tool.locked ? (
        <Card>
          <CardHeader>
            <CardTitle>Ferramenta exclusiva Premium</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col items-start gap-4">
            <p>Esta ferramenta é exclusiva para assinantes Premium. Assine o VetClube Premium para usá-la.</p>
            <Link to="/pricing" className={buttonClasses('primary')}>
              Ver Planos
            </Link>
          </CardContent>
        </Card>
      ) : tool.ui_kind === 'form' ? (
        <FormTool tool={tool} />
      ) : View ? (
        <Suspense fallback={<Spinner />}>
          <View tool={tool} />
        </Suspense>
      ) : (
        <p role="alert">Esta ferramenta não está disponível nesta versão do aplicativo.</p>
      )}
    </div>
  )
}
