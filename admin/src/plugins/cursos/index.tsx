import { lazy, Suspense } from 'react'
import { Button } from '@mui/material'
import { Link as RouterLink, Route } from 'react-router-dom'
import { Loading } from 'react-admin'
import { ContentEdit, type HeaderExtra } from '../../content/ContentEdit'
import { resourceName, type ContentType } from '../../content/types'
import { COURSE } from './curriculum'
import { T } from './texts'

// The manager (and dnd-kit) load when opened, not with the backoffice.
const CurriculumManager = lazy(() => import('./CurriculumManager'))

/** A course's curriculum manager (/admin/cursos/{id}/gerenciar on the member site), here #/content/cursos/{id}/gerenciar. */
export const managerPath = (courseId: string) => `/${resourceName(COURSE)}/${courseId}/gerenciar`

const ManageButton: HeaderExtra = ({ item }) => (
  <Button size="small" variant="outlined" component={RouterLink} to={managerPath(item.id)}>
    {T.manage}
  </Button>
)

/** The generated course form, with 'Gerenciar conteúdo' beside 'Pré-visualizar'. */
export function Edit({ type }: { type: ContentType }) {
  return <ContentEdit type={type} extra={ManageButton} />
}

export function routes(type: ContentType) {
  return (
    <Route
      path=":id/gerenciar"
      element={
        <Suspense fallback={<Loading />}>
          <CurriculumManager type={type} />
        </Suspense>
      }
    />
  )
}
