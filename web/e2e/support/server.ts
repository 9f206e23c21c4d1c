import { join, resolve } from 'node:path'
import { startServer as startShared, type RunningServer } from '../../../e2e-support/server'

export { freePort, type RunningServer } from '../../../e2e-support/server'

const webDist = join(resolve(import.meta.dirname, '..', '..'), 'dist')

/** The real server serving web/dist; extra env (e.g. GOOGLE_*) is merged in. */
export function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  return startShared({ webDist, env: extraEnv })
}
