import type { ComponentType } from 'react'
import type { ContentType } from './api'

/**
 * A content plugin may replace its reader pages from
 * plugins/<type id>/web/content.tsx (the folder of the plugin of that id), exporting List ({type}) and/or
 * Detail ({type, slug}); the generic pages serve the rest.
 */
interface ContentViews {
  List?: ComponentType<{ type: ContentType }>
  Detail?: ComponentType<{ type: ContentType; slug: string }>
}

const modules = import.meta.glob<ContentViews>('../../../../plugins/*/web/content.tsx', { eager: true })

export function customContentViews(typeId: string): ContentViews {
  return modules[`../../../../plugins/${typeId}/web/content.tsx`] ?? {}
}
