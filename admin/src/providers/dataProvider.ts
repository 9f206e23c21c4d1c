import simpleRestProvider from 'ra-data-simple-rest'
import type { DataProvider } from 'ra-core'
import { httpClient } from './httpClient'
import type { AdminUser, RoleChange } from '../users/types'
import { withContent } from '../content/contentData'

const API_URL = '/api/admin'

// Content resources (content/<type>) go through withContent: saves send only
// the input, with the edited version and the edit lock.
const rest = withContent(simpleRestProvider(API_URL, httpClient), httpClient)

export interface BackofficeDataProvider extends DataProvider {
  grantRole(userId: string, role: string): Promise<{ data: AdminUser }>
  revokeRole(userId: string, role: string): Promise<{ data: AdminUser }>
  roleChanges(userId: string): Promise<RoleChange[]>
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
  async revokeRole(userId, role) {
    const { json } = await httpClient(
      `${API_URL}/users/${encodeURIComponent(userId)}/roles/${encodeURIComponent(role)}`,
      { method: 'DELETE' },
    )
    return { data: json as AdminUser }
  },
}
