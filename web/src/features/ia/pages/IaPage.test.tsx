import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import IaPage, { splitTables } from './IaPage'
import { linkCitations, type Source } from '../api'

const status = (accepted: boolean, remaining = 5) => ({
  mode: 'demo', model: 'vetclube-demo', disclaimer: 'A VetClube IA é um apoio à decisão clínica para médicos-veterinários.',
  disclaimer_accepted: accepted, quota: { premium: false, daily_limit: 5, used_today: 5 - remaining, remaining, resets_at: '2026-11-29T03:00:00Z' },
  suggestions: ['Quais vacinas compõem o protocolo básico de filhotes de cães?'],
})

const source: Source = { n: 1, item_id: 'i1', type: 'noticias', title: 'Protocolo vacinal', url: '/noticias-veterinarias/protocolo', text: '', cited: true }

function json(body: unknown, s = 200) {
  return new Response(JSON.stringify(body), { status: s, headers: { 'Content-Type': 'application/json' } })
}

function sse(events: [string, unknown][]) {
  const body = events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('')
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } })
}

function renderPage() {
  const router = createMemoryRouter([{ path: '/vetclube-ia', element: <IaPage /> }], { initialEntries: ['/vetclube-ia'] })
  return render(<RouterProvider router={router} />)
}

afterEach(() => {
  vi.unstubAllGlobals()
  vi.restoreAllMocks()
})

describe('IaPage', () => {
  it('shows the demonstration notice and asks for the disclaimer first', async () => {
    vi.stubGlobal('fetch', vi.fn(async (url: string) => (url.startsWith('/api/ai/status') ? json(status(false)) : json({ conversations: [] }))))
    renderPage()
    expect(await screen.findByTestId('ia-demo-notice')).toHaveTextContent('Modo demonstração')
    expect(screen.getByTestId('ia-disclaimer')).toHaveTextContent('apoio à decisão clínica')
    expect(screen.getByRole('textbox', { name: 'Sua pergunta' })).toBeDisabled()
  })

  it('sends with Enter, shows the emergency banner and the cited answer', async () => {
    const conv = { id: 'c1', title: 'Nova conversa', created_at: '', updated_at: '' }
    const answer = {
      id: 'a1', seq: 2, role: 'assistant', content: 'A vacinação começa com 6 semanas [1].', status: 'complete', red_flags: ['convulsão'],
      sources: [source], created_at: '',
    }
    const question = { id: 'q1', seq: 1, role: 'user', content: 'Filhote com convulsão pode vacinar?', status: 'complete', red_flags: [], sources: [], created_at: '' }
    const calls: string[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        calls.push(`${init?.method ?? 'GET'} ${url}`)
        if (url === '/api/ai/status') return json(status(true))
        if (url === '/api/ai/conversations' && init?.method === 'POST') return json(conv, 201)
        if (url === '/api/ai/conversations') return json({ conversations: [] })
        if (url === '/api/ai/conversations/c1/messages') {
          expect(JSON.parse(init!.body as string)).toMatchObject({ content: 'Filhote com convulsão pode vacinar?' })
          return sse([
            ['alert', { red_flags: ['convulsão'], text: 'Possível emergência (convulsão): priorize o atendimento presencial.' }],
            ['turn', { conversation_id: 'c1', title: 'Filhote com convulsão pode vacinar?', question, answer_id: 'a1' }],
            ['sources', { sources: [source] }],
            ['delta', { text: 'A vacinação começa com 6 semanas [1].' }],
            ['done', answer],
          ])
        }
        if (url === '/api/ai/conversations/c1') return json({ conversation: { ...conv, title: question.content }, messages: [question, answer] })
        return json({})
      }),
    )
    renderPage()
    const box = await screen.findByRole('textbox', { name: 'Sua pergunta' })
    await waitFor(() => expect(box).toBeEnabled())
    const user = userEvent.setup()
    await user.type(box, 'Filhote com convulsão pode vacinar?{Enter}')
    const sources = await screen.findByTestId('ia-sources')
    expect(sources).toHaveTextContent('Protocolo vacinal')
    expect(screen.getAllByRole('link', { name: '[1]' })[0]).toHaveAttribute('href', '/noticias-veterinarias/protocolo')
    expect(screen.getByTestId('ia-emergency')).toHaveTextContent('Possível emergência (convulsão)')
    expect(calls).toContain('POST /api/ai/conversations/c1/messages')
    expect(box).toHaveValue('')
  })

  it('shows the limit with the Premium invitation on 429', async () => {
    const conv = { id: 'c1', title: 'Nova conversa', created_at: '', updated_at: '' }
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === '/api/ai/status') return json(status(true, 0))
        if (url === '/api/ai/conversations' && init?.method === 'POST') return json(conv, 201)
        if (url === '/api/ai/conversations') return json({ conversations: [] })
        if (url === '/api/ai/conversations/c1/messages')
          return json(
            {
              error: { code: 'rate_limited', message: 'Você usou as 5 consultas diárias à VetClube IA do seu plano.' },
              premium_invitation: { text: 'Com o Premium, você consulta a VetClube IA sem o limite do teste.', url: '/pricing' },
            },
            429,
          )
        if (url === '/api/ai/conversations/c1') return json({ conversation: conv, messages: [] })
        return json({})
      }),
    )
    renderPage()
    const box = await screen.findByRole('textbox', { name: 'Sua pergunta' })
    await waitFor(() => expect(box).toBeEnabled())
    await userEvent.setup().type(box, 'Mais uma?{Enter}')
    const limit = await screen.findByTestId('ia-limit')
    expect(limit).toHaveTextContent('Você usou as 5 consultas diárias')
    expect(screen.getByRole('link', { name: 'Ver Planos' })).toHaveAttribute('href', '/pricing')
  })
})

describe('Parar', () => {
  it('aborts the stream and shows the stopped answer the server kept', async () => {
    const conv = { id: 'c1', title: 'Nova conversa', created_at: '', updated_at: '' }
    let signal: AbortSignal | undefined
    const enc = new TextEncoder()
    const question = { id: 'q1', seq: 1, role: 'user', content: 'Explique a fluidoterapia', status: 'complete', red_flags: [], sources: [], created_at: '' }
    const stopped = { id: 'a1', seq: 2, role: 'assistant', content: 'A fluidoterapia', status: 'stopped', red_flags: [], sources: [], created_at: '' }
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url === '/api/ai/status') return json(status(true))
        if (url === '/api/ai/conversations' && init?.method === 'POST') return json(conv, 201)
        if (url === '/api/ai/conversations') return json({ conversations: [] })
        if (url === '/api/ai/conversations/c1/messages') {
          signal = init!.signal!
          const body = new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(enc.encode('event: delta\ndata: {"text":"A fluidoterapia"}\n\n'))
              signal!.addEventListener('abort', () => controller.error(new DOMException('Aborted', 'AbortError')))
            },
          })
          return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } })
        }
        if (url === '/api/ai/conversations/c1') return json({ conversation: conv, messages: [question, stopped] })
        return json({})
      }),
    )
    renderPage()
    const box = await screen.findByRole('textbox', { name: 'Sua pergunta' })
    await waitFor(() => expect(box).toBeEnabled())
    const user = userEvent.setup()
    await user.type(box, 'Explique a fluidoterapia{Enter}')
    expect(await screen.findByTestId('ia-streaming')).toHaveTextContent('A fluidoterapia')
    await user.click(screen.getByRole('button', { name: 'Parar' }))
    expect(signal?.aborted).toBe(true)
    expect(await screen.findByText('Resposta interrompida')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Enviar' })).toBeInTheDocument()
  })
})

describe('linkCitations', () => {
  it('links markers to the cited source and leaves unknown ones as text', () => {
    expect(linkCitations('Texto [1] e [3].', [source])).toBe('Texto [\\[1\\]](/noticias-veterinarias/protocolo) e [3].')
  })
})

describe('splitTables', () => {
  it('finds pipe tables between text', () => {
    const parts = splitTables('Doses:\n\n| Fármaco | Dose |\n|---|---|\n| Meloxicam | 0,1 mg/kg |\n| Dipirona | 25 mg/kg |\n\nFim.')
    expect(parts).toEqual([
      { kind: 'text', text: 'Doses:\n' },
      { kind: 'table', head: ['Fármaco', 'Dose'], rows: [['Meloxicam', '0,1 mg/kg'], ['Dipirona', '25 mg/kg']] },
      { kind: 'text', text: '\nFim.' },
    ])
  })
})
