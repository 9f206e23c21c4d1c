import { useEffect } from 'react'
import { useParams } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { Eye } from 'lucide-react'
import { Spinner } from '@/components/ui/Spinner'
import { usePageTitle } from '@/lib/usePageTitle'
import { ApiError, apiFetch } from '@/lib/api'
import { useContentTypes, type ContentItem } from './api'
import { ContentArticle } from './ContentArticle'

/**
 * /pre-visualizacao/<token>: the draft a signed preview link names, in the
 * reader's page of its type, marked 'Pré-visualização' and kept out of
 * search engines; the link stops working 15 minutes after it was made.
 */
export default function PreviewPage() {
  const { token = '' } = useParams()
  usePageTitle('Pré-visualização')
  useEffect(() => {
    const meta = document.createElement('meta')
    meta.name = 'robots'
    meta.content = 'noindex, nofollow'
    document.head.appendChild(meta)
    return () => meta.remove()
  }, [])
  const types = useContentTypes()
  const item = useQuery({
    queryKey: ['content', 'preview', token],
    queryFn: () => apiFetch<ContentItem>(`/api/preview/${encodeURIComponent(token)}`),
    retry: false,
    staleTime: 0,
  })
  const type = types.data?.find((t) => t.id === item.data?.type)
  return (
    <main className="mx-auto flex min-h-dvh max-w-4xl flex-col gap-4 bg-background px-4 py-6">
      <div role="status" className="flex items-center gap-2 rounded-xl border border-amber-400 bg-amber-50 px-4 py-3 font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-100">
        <Eye aria-hidden className="size-5" /> Pré-visualização
        <span className="font-normal">— ainda não publicada; quem lê não vê esta versão.</span>
      </div>
      {(item.isPending || types.isPending) && <Spinner />}
      {item.isError && (
        <p role="alert">
          {item.error instanceof ApiError && (item.error.status === 403 || item.error.status === 404)
            ? 'Este link de pré-visualização expirou ou é inválido. Gere outro no backoffice.'
            : 'Não foi possível carregar a pré-visualização. Verifique sua conexão.'}
        </p>
      )}
      {item.data && type && <ContentArticle type={type} item={item.data} />}
    </main>
  )
}
