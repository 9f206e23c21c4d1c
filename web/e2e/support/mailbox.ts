import type { APIRequestContext } from '@playwright/test'

/** One message of the development mailbox (GET /api/dev/mailbox, APP_ENV=development). */
export interface MailMessage {
  id: string
  to: string | string[]
  subject: string
  text: string
  html: string
  links: string[]
  created_at: string
}

export async function readMailbox(request: APIRequestContext): Promise<MailMessage[]> {
  const res = await request.get('/api/dev/mailbox')
  if (!res.ok()) throw new Error(`GET /api/dev/mailbox answered ${res.status()}`)
  const body = (await res.json()) as { messages: MailMessage[] }
  return body.messages
}

function addressedTo(message: MailMessage, email: string): boolean {
  const to = Array.isArray(message.to) ? message.to.join(',') : message.to
  return to.toLowerCase().includes(email.toLowerCase())
}

/** Newest message to `email` (optionally with a subject match), polling up to `timeoutMs`. */
export async function waitForMail(
  request: APIRequestContext,
  email: string,
  { subject, timeoutMs = 15_000 }: { subject?: RegExp; timeoutMs?: number } = {},
): Promise<MailMessage> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = (await readMailbox(request)).find((m) => addressedTo(m, email) && (!subject || subject.test(m.subject)))
    if (found) return found
    if (Date.now() > deadline) throw new Error(`no mail to ${email}${subject ? ` matching ${subject}` : ''} within ${timeoutMs} ms`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** The first link in a message whose path starts with `pathPrefix` (e.g. '/confirmar-email'). */
export function linkFrom(message: MailMessage, pathPrefix: string): string {
  const links = message.links?.length ? message.links : (message.text.match(/https?:\/\/\S+/g) ?? [])
  const link = links.find((l) => new URL(l).pathname.startsWith(pathPrefix))
  if (!link) throw new Error(`no ${pathPrefix} link in mail "${message.subject}": ${links.join(', ')}`)
  return link
}
