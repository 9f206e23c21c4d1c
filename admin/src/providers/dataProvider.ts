import simpleRestProvider from 'ra-data-simple-rest'
import type { DataProvider } from 'ra-core'
import { httpClient } from './httpClient'
import type { AdminUser, RoleChange } from '../users/types'
import { withContent } from '../content/contentData'
import { withMedia } from '../media/mediaData'
import type { ModerationAction, ModerationRow } from '../moderation/types'

const API_URL = '/api/admin'

// Content resources (content/<type>) go through withContent: saves send only
// the input, with the edited version and the edit lock. The media library's
// list goes through withMedia.
const rest = withMedia(withContent(simpleRestProvider(API_URL, httpClient), httpClient), httpClient)

export interface BackofficeDataProvider extends DataProvider {
  grantRole(userId: string, role: string): Promise<{ data: AdminUser }>
  revokeRole(userId: string, role: string): Promise<{ data: AdminUser }>
  roleChanges(userId: string): Promise<RoleChange[]>
  /** A moderator's decision on a post or comment; answers the updated queue row. */
  moderate(row: Pick<ModerationRow, 'target_type' | 'target_id'>, action: ModerationAction, reason?: string): Promise<{ data: ModerationRow }>
}

/** ra-data-simple-rest on /api/admin (content resources adapted), plus the role grant/revoke calls. */
export const dataProvider: BackofficeDataProvider = {
  ...rest,
  async grantRole(userId, role) {
    const { json } = await httpClient(
      `${API_URL}/users/${encodeURIComponent(userId)}/roles/${encodeURIComponent(role)}`,
      { method: 'POST' },
    )
    return { data: json as AdminUser }
  },
  async roleChanges(userId) {
    const { json } = await httpClient(`${API_URL}/users/${encodeURIComponent(userId)}/role-changes`)
    return json as RoleChange[]
  },
  async moderate(row, action, reason) {
    const { json } = await httpClient(
      `${API_URL}/moderation/${encodeURIComponent(row.target_type)}/${encodeURIComponent(row.target_id)}/${encodeURIComponent(action)}`,
      { method: 'POST', body: reason?.trim() ? { reason: reason.trim() } : {} },
    )
    return { data: json as ModerationRow }
  },
  async revokeRole(userId, role) {
    const { json } = await httpClient(
      `${API_URL}/users/${encodeURIComponent(userId)}/roles/${encodeURIComponent(role)}`,
      { method: 'DELETE' },
    )
    return { data: json as AdminUser }
  },
}
