import { startServer } from './server'

/** One real server for the whole run; the config reads E2E_BASE_URL. */
export default async function globalSetup() {
  const server = await startServer()
  process.env.E2E_BASE_URL = server.baseURL
  console.log(`admin e2e: vetclube serving ${server.baseURL} (log ${server.logFile})`)
  return async () => {
    await server.stop()
  }
}
