import { join, resolve } from 'node:path'
import { startServer as startShared, type RunningServer } from '../../../e2e-support/server'

export type { RunningServer } from '../../../e2e-support/server'

const adminDist = join(resolve(import.meta.dirname, '..', '..'), 'dist')

/** The real server serving admin/dist under /backoffice/ (no web app at /). */
export function startServer(): Promise<RunningServer> {
  return startShared({ adminDist })
}
