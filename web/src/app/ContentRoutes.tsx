import { Navigate, Route, Routes, useLocation } from 'react-router'
import { FullScreenLoader } from '@/components/ui/Spinner'
import { RequireAuth } from './Guard'
import { AppLayout } from './layout/AppLayout'
import NotFoundPage from '@/components/NotFoundPage'
import { matchContentRoute, useContentTypes } from '@/features/conteudo/api'
import { ContentDetailPage } from '@/features/conteudo/ContentDetailPage'
import { ContentListPage } from '@/features/conteudo/ContentListPage'
import { customContentViews } from '@/features/conteudo/customViews'

function ContentPage() {
  const { pathname } = useLocation()
  const { data: types } = useContentTypes()
  const match = matchContentRoute(types, pathname)
  if (!match) return <Navigate to="/" replace />
  const custom = customContentViews(match.type.id)
  if (match.slug) {
    const Detail = custom.Detail ?? ContentDetailPage
    return <Detail type={match.type} slug={match.slug} />
  }
  const List = custom.List ?? ContentListPage
  return <List type={match.type} />
}

/**
 * Any path no route claims: the page of a content type when a plugin
 * declared that route (e.g. /noticias-veterinarias and its items), guarded
 * and inside the layout like every signed-in page; otherwise not found.
 * Content plugins thus get their pages with no edit in web/.
 */
export default function ContentRoutes() {
  const { pathname } = useLocation()
  const types = useContentTypes()
  if (types.isPending) return <FullScreenLoader />
  if (!matchContentRoute(types.data, pathname)) return <NotFoundPage />
  return (
    <Routes>
      <Route element={<RequireAuth />}>
        <Route element={<AppLayout />}>
          <Route path="*" element={<ContentPage />} />
        </Route>
      </Route>
    </Routes>
  )
}
