import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { Link } from 'react-router'
import Markdown, { type Components } from 'react-markdown'
import { AlertTriangle, Copy, Flag, MessageSquarePlus, Pencil, RefreshCw, Search, Send, Sparkles, Square, Trash2 } from 'lucide-react'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { Badge } from '@/components/ui/Badge'
import { toast } from '@/components/ui/toast'
import { cn } from '@/lib/cn'
import {
  acceptDisclaimer,
  ask,
  createConversation,
  deleteConversation,
  getConversation,
  getStatus,
  linkCitations,
  listConversations,
  LimitReached,
  renameConversation,
  reportAnswer,
  type AiStatus,
  type AskInput,
  type Conversation,
  type Message,
  type Source,
  type ToolRun,
} from '../api'

// The answer's Markdown, reduced to a safe subset: React builds every
// element, raw HTML is never rendered, links go only to this site's pages.
const ALLOWED = ['p', 'strong', 'em', 'ul', 'ol', 'li', 'code', 'pre', 'blockquote', 'h3', 'h4', 'a', 'br', 'hr']
const components: Components = {
  a: ({ href, children }) =>
    href && href.startsWith('/') && !href.startsWith('//') ? (
      <Link to={href} className="font-medium text-teal-700 underline dark:text-teal-300">
        {children}
      </Link>
    ) : (
      <span>{children}</span>
    ),
}

function Inline({ text }: { text: string }) {
  return (
    <Markdown allowedElements={['strong', 'em', 'code', 'a']} unwrapDisallowed skipHtml components={components}>
      {text}
    </Markdown>
  )
}

/** Splits Markdown into text and pipe tables (| a | b |), which react-markdown leaves as text without GFM. */
export function splitTables(text: string): ({ kind: 'text'; text: string } | { kind: 'table'; head: string[]; rows: string[][] })[] {
  const out: ({ kind: 'text'; text: string } | { kind: 'table'; head: string[]; rows: string[][] })[] = []
  const lines = text.split('\n')
  const cells = (l: string) => l.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((c) => c.trim())
  let buf: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] ?? ''
    const next = lines[i + 1] ?? ''
    if (l.trim().startsWith('|') && /^\s*\|?\s*:?-{2,}/.test(next)) {
      if (buf.length) out.push({ kind: 'text', text: buf.join('\n') })
      buf = []
      const head = cells(l)
      const rows: string[][] = []
      i += 2
      while (i < lines.length && (lines[i] ?? '').trim().startsWith('|')) rows.push(cells(lines[i++] ?? ''))
      i--
      out.push({ kind: 'table', head, rows })
    } else buf.push(l)
  }
  if (buf.length) out.push({ kind: 'text', text: buf.join('\n') })
  return out
}

function AnswerMarkdown({ text, sources }: { text: string; sources: Source[] }) {
  return (
    <div className="prose prose-sm max-w-none dark:prose-invert [&_li]:my-1 [&_ol]:list-decimal [&_ol]:pl-5 [&_p]:my-2 [&_pre]:overflow-x-auto [&_pre]:rounded [&_pre]:bg-muted [&_pre]:p-2 [&_ul]:list-disc [&_ul]:pl-5">
      {splitTables(linkCitations(text, sources)).map((part, i) =>
        part.kind === 'text' ? (
          <Markdown key={i} allowedElements={ALLOWED} unwrapDisallowed skipHtml components={components}>
            {part.text}
          </Markdown>
        ) : (
          <div key={i} className="my-2 overflow-x-auto">
            <table className="min-w-full border-collapse text-sm">
              <thead>
                <tr>
                  {part.head.map((h, j) => (
                    <th key={j} className="border px-2 py-1 text-left font-semibold">
                      <Inline text={h} />
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {part.rows.map((r, j) => (
                  <tr key={j}>
                    {r.map((c, k) => (
                      <td key={k} className="border px-2 py-1">
                        <Inline text={c} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ),
      )}
    </div>
  )
}

interface Streaming {
  answerId?: string
  question: string
  text: string
  sources: Source[]
  tools: ToolRun[]
  alert?: string
}

export default function IaPage() {
  const [status, setStatus] = useState<AiStatus | null>(null)
  const [conversations, setConversations] = useState<Conversation[]>([])
  const [query, setQuery] = useState('')
  const [current, setCurrent] = useState<Conversation | null>(null)
  const [messages, setMessages] = useState<Message[]>([])
  const [draft, setDraft] = useState('')
  const [editing, setEditing] = useState<Message | null>(null)
  const [streaming, setStreaming] = useState<Streaming | null>(null)
  const [limit, setLimit] = useState<LimitReached | null>(null)
  const [renaming, setRenaming] = useState<Conversation | null>(null)
  const [newTitle, setNewTitle] = useState('')
  const [deleting, setDeleting] = useState<Conversation | null>(null)
  const [confirmEdit, setConfirmEdit] = useState<{ message: Message; text: string } | null>(null)
  const abortRef = useRef<AbortController | null>(null)
  // The conversation on screen: a stream that ends after the member moved
  // to another conversation must not bring the old one back.
  const shownRef = useRef<string | null>(null)
  useEffect(() => {
    shownRef.current = current?.id ?? null
  }, [current])
  const endRef = useRef<HTMLDivElement | null>(null)

  const refreshStatus = useCallback(() => getStatus().then(setStatus).catch(() => undefined), [])
  useEffect(() => {
    void refreshStatus()
  }, [refreshStatus])
  useEffect(() => {
    const t = setTimeout(() => {
      listConversations(query)
        .then(setConversations)
        .catch(() => undefined)
    }, 200)
    return () => clearTimeout(t)
  }, [query])
  useEffect(() => () => abortRef.current?.abort(), [])
  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'end' })
  }, [messages, streaming?.text])

  const open = async (c: Conversation) => {
    abortRef.current?.abort()
    shownRef.current = c.id
    const r = await getConversation(c.id)
    setCurrent(r.conversation)
    setMessages(r.messages)
    setLimit(null)
  }

  // After the stream ends (or is stopped) the stored turn is read back: the
  // server saves the partial answer of a stopped one.
  const reload = async (id: string) => {
    for (let i = 0; i < 10; i++) {
      const r = await getConversation(id)
      if (shownRef.current !== id) return
      if (!r.messages.some((m) => m.status === 'streaming')) {
        setMessages(r.messages)
        setCurrent(r.conversation)
        return
      }
      await new Promise((res) => setTimeout(res, 150))
    }
  }

  const send = async (input: AskInput, shown: string) => {
    if (streaming) return
    setLimit(null)
    let conv = current
    if (!conv) {
      conv = await createConversation()
      shownRef.current = conv.id
      setCurrent(conv)
    }
    const ctrl = new AbortController()
    abortRef.current = ctrl
    const id = conv.id
    setStreaming({ question: shown, text: '', sources: [], tools: [] })
    if (input.edit_of) {
      const at = messages.findIndex((m) => m.id === input.edit_of)
      setMessages(messages.slice(0, at))
    } else if (input.regenerate) {
      const last = messages.length - 1
      if (last >= 0 && messages[last]?.role === 'assistant') setMessages(messages.slice(0, last))
    }
    try {
      await ask(
        id,
        input,
        {
          onAlert: (a) => setStreaming((s) => (s ? { ...s, alert: a.text } : s)),
          onTurn: (t) => {
            setStreaming((s) => (s ? { ...s, answerId: t.answer_id } : s))
            setCurrent((c) => (c ? { ...c, title: t.title } : c))
          },
          onSources: (sources) => setStreaming((s) => (s ? { ...s, sources } : s)),
          onDelta: (text) => setStreaming((s) => (s ? { ...s, text: s.text + text } : s)),
          onTool: (run) => setStreaming((s) => (s ? { ...s, tools: [...s.tools, run] } : s)),
        },
        ctrl.signal,
      )
    } catch (err) {
      if (err instanceof LimitReached) setLimit(err)
      else toast({ title: err instanceof Error ? err.message : 'Erro ao enviar a pergunta.', variant: 'error' })
    } finally {
      abortRef.current = null
      await reload(id).catch(() => undefined)
      setStreaming(null)
      void refreshStatus()
      listConversations(query)
        .then(setConversations)
        .catch(() => undefined)
    }
  }

  const submit = () => {
    const text = draft.trim()
    if (!text || streaming) return
    if (editing) {
      const later = messages.filter((m) => m.seq > editing.seq).length
      if (later > 0) {
        setConfirmEdit({ message: editing, text })
        return
      }
      void send({ content: text, edit_of: editing.id }, text)
      setEditing(null)
    } else {
      void send({ content: text }, text)
    }
    setDraft('')
  }

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault()
      submit()
    }
  }

  const stop = () => abortRef.current?.abort()

  const newConversation = () => {
    abortRef.current?.abort()
    shownRef.current = null
    setCurrent(null)
    setMessages([])
    setEditing(null)
    setLimit(null)
  }

  const accepted = status?.disclaimer_accepted ?? false
  const q = status?.quota
  const last = messages[messages.length - 1]

  return (
    <div className="flex h-[calc(100dvh-4rem)] flex-col gap-3 lg:h-[calc(100dvh-6rem)] lg:flex-row">
      <aside className="flex max-h-48 flex-col gap-2 overflow-hidden rounded-lg border bg-card p-3 lg:max-h-none lg:w-72" aria-label="Conversas">
        <Button onClick={newConversation} variant="outline">
          <MessageSquarePlus aria-hidden="true" className="h-4 w-4" /> Nova conversa
        </Button>
        <label className="relative">
          <span className="sr-only">Buscar conversas</span>
          <Search aria-hidden="true" className="absolute left-2 top-2.5 h-4 w-4 text-muted-foreground" />
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Buscar conversas"
            maxLength={200}
            className="w-full rounded-md border bg-background py-2 pl-8 pr-2 text-sm"
          />
        </label>
        <ul className="flex-1 overflow-y-auto" data-testid="ia-conversations">
          {conversations.length === 0 && <li className="p-2 text-sm text-muted-foreground">{query ? 'Nenhuma conversa encontrada.' : 'Nenhuma conversa ainda.'}</li>}
          {conversations.map((c) => (
            <li key={c.id} className={cn('group flex items-center gap-1 rounded-md', current?.id === c.id && 'bg-teal-50 dark:bg-teal-950')}>
              <button type="button" onClick={() => void open(c)} className="flex-1 truncate px-2 py-2 text-left text-sm" aria-current={current?.id === c.id}>
                {c.title}
              </button>
              <button
                type="button"
                className="rounded p-1 text-muted-foreground hover:text-foreground"
                aria-label={`Renomear ${c.title}`}
                onClick={() => {
                  setRenaming(c)
                  setNewTitle(c.title)
                }}
              >
                <Pencil aria-hidden="true" className="h-4 w-4" />
              </button>
              <button type="button" className="rounded p-1 text-muted-foreground hover:text-red-600" aria-label={`Excluir ${c.title}`} onClick={() => setDeleting(c)}>
                <Trash2 aria-hidden="true" className="h-4 w-4" />
              </button>
            </li>
          ))}
        </ul>
      </aside>

      <section className="flex min-h-0 flex-1 flex-col rounded-lg border bg-card" aria-labelledby="ia-title">
        <header className="flex flex-wrap items-center gap-2 border-b p-3">
          <Sparkles aria-hidden="true" className="h-5 w-5 text-teal-600" />
          <h1 id="ia-title" className="text-lg font-bold">
            {current?.title ?? 'VetClube IA'}
          </h1>
          {q && (
            <span className="ml-auto text-xs text-muted-foreground" data-testid="ia-quota">
              {q.premium && q.daily_limit > 0 ? `Premium: ${q.remaining} de ${q.daily_limit} consultas hoje` : `Consultas restantes hoje: ${q.remaining} de ${q.daily_limit}`}
            </span>
          )}
        </header>

        {status?.mode === 'demo' && (
          <p role="note" data-testid="ia-demo-notice" className="border-b bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
            <strong>Modo demonstração:</strong> nenhum modelo de linguagem está configurado. As respostas são montadas a partir do conteúdo publicado no VetClube, com as fontes citadas.
          </p>
        )}

        <div className="flex-1 space-y-4 overflow-y-auto p-3" aria-live="polite">
          {status && !accepted && (
            <div className="rounded-lg border border-teal-200 bg-teal-50 p-4 text-sm dark:border-teal-800 dark:bg-teal-950" data-testid="ia-disclaimer">
              <p className="mb-3">{status.disclaimer}</p>
              <Button
                onClick={() =>
                  acceptDisclaimer()
                    .then(() => refreshStatus())
                    .catch((e: Error) => toast({ title: e.message, variant: 'error' }))
                }
              >
                Li e aceito
              </Button>
            </div>
          )}
          {accepted && messages.length === 0 && !streaming && (
            <div className="space-y-3">
              <p className="text-sm text-muted-foreground">{status?.disclaimer}</p>
              <p className="font-medium">Sugestões para começar:</p>
              <div className="grid gap-2 sm:grid-cols-2">
                {status?.suggestions.map((s) => (
                  <button key={s} type="button" onClick={() => void send({ content: s }, s)} className="rounded-lg border p-3 text-left text-sm hover:bg-muted">
                    {s}
                  </button>
                ))}
              </div>
            </div>
          )}
          {messages.map((m) => (
            <Bubble
              key={m.id}
              m={m}
              isLast={m === last}
              busy={!!streaming}
              onEdit={() => {
                setEditing(m)
                setDraft(m.content)
              }}
              onRegenerate={() => void send({ regenerate: true }, messages.filter((x) => x.role === 'user').at(-1)?.content ?? '')}
            />
          ))}
          {streaming && (
            <>
              <div className="ml-auto max-w-[85%] whitespace-pre-wrap rounded-lg bg-teal-700 p-3 text-sm text-white">{streaming.question}</div>
              {streaming.alert && <EmergencyBanner text={streaming.alert} />}
              <ToolCards tools={streaming.tools} />
              <div className="max-w-[95%] rounded-lg border p-3" data-testid="ia-streaming">
                {streaming.text ? <AnswerMarkdown text={streaming.text} sources={streaming.sources} /> : <p className="text-sm text-muted-foreground">Pesquisando o conteúdo do VetClube…</p>}
              </div>
            </>
          )}
          {limit && (
            <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-50" data-testid="ia-limit">
              <p className="font-medium">{limit.message}</p>
              {limit.invitation && (
                <div className="mt-3 flex flex-wrap items-center gap-3">
                  <span>{limit.invitation.text}</span>
                  <Link to={limit.invitation.url} className={buttonClasses('primary', 'sm')}>
                    Ver Planos
                  </Link>
                </div>
              )}
            </div>
          )}
          <div ref={endRef} />
        </div>

        <form
          className="border-t p-3"
          onSubmit={(e) => {
            e.preventDefault()
            submit()
          }}
        >
          {editing && (
            <p className="mb-2 flex items-center gap-2 text-xs text-muted-foreground">
              Editando sua pergunta.
              <button type="button" className="underline" onClick={() => { setEditing(null); setDraft('') }}>
                Cancelar edição
              </button>
            </p>
          )}
          <div className="flex items-end gap-2">
            <label className="flex-1">
              <span className="sr-only">Sua pergunta</span>
              <textarea
                value={draft}
                onChange={(e) => setDraft(e.target.value)}
                onKeyDown={onKey}
                rows={2}
                maxLength={4000}
                disabled={!accepted}
                placeholder={accepted ? 'Pergunte à VetClube IA… (Enter envia, Shift+Enter quebra a linha)' : 'Aceite o aviso acima para perguntar.'}
                className="max-h-40 w-full resize-y rounded-md border bg-background p-2 text-sm"
              />
            </label>
            {streaming ? (
              <Button type="button" variant="outline" onClick={stop}>
                <Square aria-hidden="true" className="h-4 w-4" /> Parar
              </Button>
            ) : (
              <Button type="submit" disabled={!accepted || !draft.trim()}>
                <Send aria-hidden="true" className="h-4 w-4" /> Enviar
              </Button>
            )}
          </div>
        </form>
      </section>

      <Dialog
        open={!!renaming}
        onOpenChange={(o) => !o && setRenaming(null)}
        title="Renomear conversa"
        footer={
          <>
            <Button variant="outline" onClick={() => setRenaming(null)}>
              Cancelar
            </Button>
            <Button
              onClick={() => {
                const c = renaming!
                renameConversation(c.id, newTitle)
                  .then((r) => {
                    setConversations((list) => list.map((x) => (x.id === r.id ? r : x)))
                    if (current?.id === r.id) setCurrent(r)
                    setRenaming(null)
                  })
                  .catch((e: Error) => toast({ title: e.message, variant: 'error' }))
              }}
            >
              Salvar
            </Button>
          </>
        }
      >
        <label className="flex flex-col gap-1 text-sm">
          Nome da conversa
          <input value={newTitle} onChange={(e) => setNewTitle(e.target.value)} maxLength={120} className="rounded-md border bg-background p-2" />
        </label>
      </Dialog>

      <Dialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(null)}
        title="Excluir conversa"
        description={deleting ? `"${deleting.title}" e todas as suas mensagens serão excluídas. Esta ação não pode ser desfeita.` : undefined}
        footer={
          <>
            <Button variant="outline" onClick={() => setDeleting(null)}>
              Cancelar
            </Button>
            <Button
              variant="destructive"
              onClick={() => {
                const c = deleting!
                deleteConversation(c.id)
                  .then(() => {
                    setConversations((list) => list.filter((x) => x.id !== c.id))
                    if (current?.id === c.id) newConversation()
                    setDeleting(null)
                  })
                  .catch((e: Error) => toast({ title: e.message, variant: 'error' }))
              }}
            >
              Excluir
            </Button>
          </>
        }
      />

      <Dialog
        open={!!confirmEdit}
        onOpenChange={(o) => !o && setConfirmEdit(null)}
        title="Editar e reenviar"
        description="As respostas e perguntas depois desta serão substituídas pela nova resposta."
        footer={
          <>
            <Button variant="outline" onClick={() => setConfirmEdit(null)}>
              Cancelar
            </Button>
            <Button
              onClick={() => {
                const c = confirmEdit!
                setConfirmEdit(null)
                setEditing(null)
                setDraft('')
                void send({ content: c.text, edit_of: c.message.id }, c.text)
              }}
            >
              Reenviar
            </Button>
          </>
        }
      />
    </div>
  )
}

function EmergencyBanner({ text }: { text: string }) {
  return (
    <div role="alert" data-testid="ia-emergency" className="flex gap-2 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-100">
      <AlertTriangle aria-hidden="true" className="h-5 w-5 shrink-0" />
      <p>{text}</p>
    </div>
  )
}

function ToolCards({ tools }: { tools: ToolRun[] }) {
  if (tools.length === 0) return null
  return (
    <ul className="space-y-2" aria-label="Cálculos">
      {tools.map((t, i) => (
        <li key={i} data-testid="ia-tool" className="rounded-lg border border-teal-200 bg-teal-50 p-2 text-sm dark:border-teal-800 dark:bg-teal-950">
          {t.error ? `Cálculo não realizado (${t.title}): ${t.error}` : t.result}
        </li>
      ))}
    </ul>
  )
}

function Bubble({ m, isLast, busy, onEdit, onRegenerate }: { m: Message; isLast: boolean; busy: boolean; onEdit: () => void; onRegenerate: () => void }) {
  if (m.role === 'user') {
    return (
      <div className="ml-auto flex max-w-[85%] flex-col items-end gap-1">
        <div className="whitespace-pre-wrap rounded-lg bg-teal-700 p-3 text-sm text-white">{m.content}</div>
        <button type="button" disabled={busy} onClick={onEdit} className="flex items-center gap-1 text-xs text-muted-foreground hover:underline">
          <Pencil aria-hidden="true" className="h-3 w-3" /> Editar e reenviar
        </button>
      </div>
    )
  }
  const cited = m.sources.filter((s) => s.cited)
  return (
    <div className="max-w-[95%] space-y-2" data-testid="ia-answer">
      {m.red_flags.length > 0 && <EmergencyBanner text={`Possível emergência (${m.red_flags.join(', ')}): priorize o atendimento veterinário presencial imediato.`} />}
      <ToolCards tools={m.tools ?? []} />
      <div className="rounded-lg border p-3">
        {m.content ? <AnswerMarkdown text={m.content} sources={m.sources} /> : <p className="text-sm text-muted-foreground">Sem texto.</p>}
        {m.status === 'stopped' && <Badge variant="secondary">Resposta interrompida</Badge>}
        {m.status === 'length' && <Badge variant="secondary">Resposta cortada no limite de tamanho</Badge>}
        {m.status === 'failed' && <p className="mt-2 text-sm text-red-700 dark:text-red-300">A resposta não pôde ser concluída. O que chegou foi guardado.</p>}
        {cited.length > 0 && (
          <div className="mt-3 border-t pt-2" data-testid="ia-sources">
            <p className="text-xs font-semibold uppercase text-muted-foreground">Fontes</p>
            <ol className="mt-1 space-y-1 text-sm">
              {cited.map((s) => (
                <li key={s.n}>
                  [{s.n}]{' '}
                  <Link to={s.url} className="text-teal-700 underline dark:text-teal-300">
                    {s.title}
                  </Link>
                </li>
              ))}
            </ol>
          </div>
        )}
      </div>
      <div className="flex flex-wrap gap-3 text-xs text-muted-foreground">
        <button type="button" className="flex items-center gap-1 hover:underline" onClick={() => void navigator.clipboard?.writeText(m.content).then(() => toast('Resposta copiada.'))}>
          <Copy aria-hidden="true" className="h-3 w-3" /> Copiar
        </button>
        {isLast && (
          <button type="button" disabled={busy} className="flex items-center gap-1 hover:underline" onClick={onRegenerate}>
            <RefreshCw aria-hidden="true" className="h-3 w-3" /> {m.status === 'failed' ? 'Tentar novamente' : 'Gerar novamente'}
          </button>
        )}
        <button
          type="button"
          className="flex items-center gap-1 hover:underline"
          onClick={() =>
            reportAnswer(m.id, 'Resposta reportada pelo membro.')
              .then(() => toast('Obrigado: a resposta foi reportada à equipe.'))
              .catch((e: Error) => toast({ title: e.message, variant: 'error' }))
          }
        >
          <Flag aria-hidden="true" className="h-3 w-3" /> Reportar resposta
        </button>
      </div>
    </div>
  )
}
