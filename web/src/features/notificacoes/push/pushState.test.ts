import { afterEach, describe, expect, it, vi } from 'vitest'
import { fakeBrowserPush, removeBrowserPush } from '../test/browserPush'
import { subscribePush } from './pushState'

const reply = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

function serverAnswering(...registrations: Response[]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    if (String(input) === '/api/push/vapid-key') return reply(200, { public_key: 'AQID' })
    return registrations.shift() ?? reply(500)
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

afterEach(() => removeBrowserPush())

describe('subscribePush', () => {
  it("makes a new browser subscription when the endpoint is another account's (409)", async () => {
    const browser = fakeBrowserPush({ permission: 'granted', subscribed: true })
    const fetchMock = serverAnswering(
      reply(409, { error: { code: 'conflict', message: 'Este navegador está inscrito nas notificações de outra conta.' } }),
      reply(201, {}),
    )
    const first = browser.subscription()!
    const state = await subscribePush()
    expect(first.unsubscribe).toHaveBeenCalled()
    expect(browser.pushManager.subscribe).toHaveBeenCalledTimes(1)
    expect(fetchMock.mock.calls.filter(([p]) => p === '/api/push/subscriptions')).toHaveLength(2)
    expect(state.endpoint).toBe(browser.endpoint)
  })

  it("shows the server's device limit message", async () => {
    fakeBrowserPush({ permission: 'granted' })
    serverAnswering(reply(422, { error: { code: 'invalid', message: 'Você já tem 10 dispositivos com notificações ativas. Desative um deles para ativar neste.' } }))
    await expect(subscribePush()).rejects.toThrow(
      'Erro ao ativar notificações: Você já tem 10 dispositivos com notificações ativas. Desative um deles para ativar neste.',
    )
  })
})
