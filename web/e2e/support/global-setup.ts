import { startServer } from './server'

/** One real server for the whole run; workers read E2E_BASE_URL. */
export default async function globalSetup() {
  const server = await startServer()
  process.env.E2E_BASE_URL = server.baseURL
  process.env.E2E_SERVER_LOG = server.logFile
  console.log(`e2e: vetclube serving ${server.baseURL} (log ${server.logFile})`)
  return async () => {
    await server.stop()
  }
}
