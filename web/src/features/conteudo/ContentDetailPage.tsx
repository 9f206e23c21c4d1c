import { Link } from 'react-router'
import { ArrowLeft } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { ApiError } from '@/lib/api'
import { useContentItem, type ContentType } from './api'
import { ContentArticle } from './ContentArticle'

/** One published item at <type route>/<slug>. */
export function ContentDetailPage({ type, slug }: { type: ContentType; slug: string }) {
  const item = useContentItem(type.id, slug)
  usePageTitle(item.data?.title ?? type.singular)
  return (
    <div className="flex flex-col gap-4">
      <Link to={type.route ?? '/'} className="inline-flex items-center gap-1 text-sm text-primary hover:underline">
        <ArrowLeft aria-hidden className="size-4" /> Voltar para {type.plural}
      </Link>
      {item.isPending && <Spinner />}
      {item.isError &&
        (item.error instanceof ApiError && item.error.status === 404 ? (
          <p role="alert">Este conteúdo não existe ou não está mais publicado.</p>
        ) : (
          <div role="alert" className="flex flex-col items-start gap-2">
            <p>Não foi possível carregar este conteúdo. Verifique sua conexão.</p>
            <Button size="sm" variant="outline" onClick={() => item.refetch()}>
              Tentar novamente
            </Button>
          </div>
        ))}
      {item.data && <ContentArticle type={type} item={item.data} />}
    </div>
  )
}
