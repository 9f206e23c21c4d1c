import type { ComponentType, ReactNode } from 'react'
import ArticleIcon from '@mui/icons-material/Article'
import { Resource } from 'react-admin'
import { ContentCreate, ContentEdit } from './ContentEdit'
import { ContentList } from './ContentList'
import { resourceName, type ContentType } from './types'

/**
 * A content plugin may ship its own backoffice views in
 * admin/src/plugins/<type id>/index.tsx, exporting any of List, Edit and
 * Create (each receives the type); the generated views fill in the rest.
 * It may also export routes: react-router <Route>s under the resource's
 * path (e.g. ":id/gerenciar" → #/content/cursos/{id}/gerenciar).
 */
interface CustomViews {
  List?: ComponentType<{ type: ContentType }>
  Edit?: ComponentType<{ type: ContentType }>
  Create?: ComponentType<{ type: ContentType }>
  routes?: (type: ContentType) => ReactNode
}

const customModules = import.meta.glob<CustomViews>('../plugins/*/index.tsx', { eager: true })

export function customViewsFor(typeId: string): CustomViews {
  return customModules[`../plugins/${typeId}/index.tsx`] ?? {}
}

/** One react-admin resource per registered content type, from its declaration alone. */
export function contentResources(types: ContentType[]) {
  return types.map((type) => {
    const custom = customViewsFor(type.id)
    const ListView = custom.List ?? ContentList
    const EditView = custom.Edit ?? ContentEdit
    const CreateView = custom.Create ?? ContentCreate
    return (
      <Resource
        key={type.id}
        name={resourceName(type.id)}
        options={{ label: type.plural }}
        icon={ArticleIcon}
        recordRepresentation="title"
        list={<ListView type={type} />}
        edit={<EditView type={type} />}
        create={<CreateView type={type} />}
      >
        {custom.routes?.(type)}
      </Resource>
    )
  })
}
