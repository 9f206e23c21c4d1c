import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { Toaster } from '@/components/ui/Toaster'
import { refreshPushState } from '../push/pushState'
import { fakeBrowserPush, removeBrowserPush, type FakePushOptions } from '../test/browserPush'
import { PROMPT_DISMISSED_KEY, PROMPT_REGION_NAME, PROMPT_SLOT_ID, PushPermissionPrompt } from './PushPermissionPrompt'

const title = () => screen.queryByRole('heading', { name: 'Notificações' })

async function showPrompt(options: FakePushOptions = {}) {
  const browser = fakeBrowserPush(options)
  await refreshPushState()
  const view = render(
    <>
      <PushPermissionPrompt />
      <Toaster />
    </>,
  )
  return { browser, view }
}

beforeEach(() => {
  sessionStorage.clear()
  localStorage.clear()
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
  removeBrowserPush()
})

describe('PushPermissionPrompt', () => {
  it('appears 3 s after load with its texts', async () => {
    await showPrompt()
    act(() => vi.advanceTimersByTime(2999))
    expect(title()).toBeNull()
    act(() => vi.advanceTimersByTime(1))
    expect(title()).toBeInTheDocument()
    expect(screen.getByText('Receba notificações sobre novos desafios, conexões e atualizações importantes')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Permitir' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Agora não' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Fechar' })).toBeInTheDocument()
  })

  it("'Agora não' hides it for the rest of the session", async () => {
    const { view } = await showPrompt()
    act(() => vi.advanceTimersByTime(3000))
    fireEvent.click(screen.getByRole('button', { name: 'Agora não' }))
    expect(title()).toBeNull()
    expect(sessionStorage.getItem(PROMPT_DISMISSED_KEY)).toBe('1')
    view.unmount()
    render(<PushPermissionPrompt />)
    act(() => vi.advanceTimersByTime(10_000))
    expect(title()).toBeNull()
  })

  it('stays dismissed in a new tab of the same sign-in session, and may ask again after the next sign-in', async () => {
    document.cookie = 'vc_csrf=session-one; Path=/'
    const { view } = await showPrompt()
    act(() => vi.advanceTimersByTime(3000))
    fireEvent.click(screen.getByRole('button', { name: 'Agora não' }))
    view.unmount()

    // A new tab: its own sessionStorage, the same cookies and localStorage.
    sessionStorage.clear()
    const again = render(<PushPermissionPrompt />)
    act(() => vi.advanceTimersByTime(10_000))
    expect(title()).toBeNull()
    again.unmount()

    // Signed in again: the server issued another session (another CSRF token).
    document.cookie = 'vc_csrf=session-two; Path=/'
    render(<PushPermissionPrompt />)
    act(() => vi.advanceTimersByTime(3000))
    expect(title()).toBeInTheDocument()
    document.cookie = 'vc_csrf=; Path=/; Max-Age=0'
  })

  it('sits in the page flow inside the layout slot, where it can cover nothing', async () => {
    const slot = document.createElement('div')
    slot.id = PROMPT_SLOT_ID
    document.body.append(slot)
    await showPrompt()
    act(() => vi.advanceTimersByTime(3000))
    const card = screen.getByRole('region', { name: PROMPT_REGION_NAME })
    expect(slot).toContainElement(card)
    // Fixed only from 1024 px (lg:fixed); on phones it takes its place in the flow.
    expect(card.className.split(' ')).not.toContain('fixed')
    expect(card.className.split(' ')).toContain('lg:fixed')
    slot.remove()
  })

  it('the close icon dismisses it too', async () => {
    await showPrompt()
    act(() => vi.advanceTimersByTime(3000))
    fireEvent.click(screen.getByRole('button', { name: 'Fechar' }))
    expect(title()).toBeNull()
    expect(sessionStorage.getItem(PROMPT_DISMISSED_KEY)).toBe('1')
  })

  it.each<[string, FakePushOptions]>([
    ['permission granted', { permission: 'granted' }],
    ['permission denied', { permission: 'denied' }],
    ['already subscribed', { permission: 'granted', subscribed: true }],
    ['an insecure context', { secure: false }],
  ])('never appears with %s', async (_, options) => {
    await showPrompt(options)
    act(() => vi.advanceTimersByTime(10_000))
    expect(title()).toBeNull()
  })

  it("'Permitir' shows 'Ativando...', subscribes with the server key and registers the device", async () => {
    vi.useRealTimers()
    let finishRegistration: (r: Response) => void = () => {}
    const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
      if (String(input) === '/api/push/vapid-key') return new Response(JSON.stringify({ public_key: 'AQID' }), { status: 200 })
      return new Promise<Response>((resolve) => (finishRegistration = resolve))
    })
    vi.stubGlobal('fetch', fetchMock)
    const { browser } = await showPrompt()
    await waitFor(() => expect(title()).toBeInTheDocument(), { timeout: 4000 })
    fireEvent.click(screen.getByRole('button', { name: 'Permitir' }))
    expect(await screen.findByRole('button', { name: 'Ativando...' })).toBeDisabled()
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2))
    expect(browser.Notification.requestPermission).toHaveBeenCalled()
    const opts = browser.pushManager.subscribe.mock.calls[0]![0]
    expect(opts.userVisibleOnly).toBe(true)
    expect(Array.from(opts.applicationServerKey as Uint8Array)).toEqual([1, 2, 3])
    const [path, init] = fetchMock.mock.calls[1] as unknown as [string, RequestInit]
    expect(path).toBe('/api/push/subscriptions')
    expect(JSON.parse(String(init.body))).toEqual({
      subscription: { endpoint: browser.endpoint, keys: { p256dh: 'p256dh-key', auth: 'auth-secret' } },
      userAgent: navigator.userAgent,
    })
    finishRegistration(new Response(null, { status: 201 }))
    expect(await screen.findByText('Notificações push ativadas com sucesso!')).toBeInTheDocument()
    expect(title()).toBeNull()
  })

  it('a refused permission says so and the prompt goes away', async () => {
    vi.useRealTimers()
    vi.stubGlobal('fetch', vi.fn())
    await showPrompt({ answer: 'denied' })
    await waitFor(() => expect(title()).toBeInTheDocument(), { timeout: 4000 })
    fireEvent.click(screen.getByRole('button', { name: 'Permitir' }))
    expect(await screen.findByText('Permissão para notificações foi negada')).toBeInTheDocument()
    await waitFor(() => expect(title()).toBeNull())
    expect(fetch).not.toHaveBeenCalled()
  })
})
