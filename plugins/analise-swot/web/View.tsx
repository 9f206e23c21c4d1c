import { useEffect, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useBlocker } from 'react-router'
import { ArrowDown, ArrowUp, Plus, Printer, Trash2, X } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { Dialog } from '@/components/ui/Dialog'
import { Input } from '@/components/ui/Input'
import { Spinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api'
import { cn } from '@/lib/cn'
import { toolFetch, type ToolViewProps } from '@/features/ferramentas'

type QuadrantKey = 'strengths' | 'weaknesses' | 'opportunities' | 'threats'
type Quadrants = Record<QuadrantKey, string[]>

interface Analysis {
  id: string
  title: string
  quadrants: Quadrants
  version: number
  updated_at: string
}

const QUADRANTS: { key: QuadrantKey; label: string; tone: string }[] = [
  { key: 'strengths', label: 'Forças', tone: 'border-green-600' },
  { key: 'weaknesses', label: 'Fraquezas', tone: 'border-red-600' },
  { key: 'opportunities', label: 'Oportunidades', tone: 'border-sky-600' },
  { key: 'threats', label: 'Ameaças', tone: 'border-amber-600' },
]

const empty = (): Quadrants => ({ strengths: [], weaknesses: [], opportunities: [], threats: [] })
const key = ['tools', 'analise-swot', 'analyses'] as const
const noDrafts = (): Record<QuadrantKey, string> => ({ strengths: '', weaknesses: '', opportunities: '', threats: '' })

/** What a save sends, as a string: the editor is dirty while it differs from the last one saved. */
const snapshot = (title: string, quadrants: Quadrants) => JSON.stringify({ title, quadrants: { ...empty(), ...quadrants } })

// While the editor is open, printing shows the analysis alone: the app's top
// bar, sidebar and bottom navigation (and anything marked data-print-hide)
// are hidden. Rendered only with the editor, so other pages print as before.
const PRINT_CSS = `@media print {
  header:not(main header), nav, aside, [data-print-hide] { display: none !important; }
  main#conteudo { padding: 0 !important; }
}`

/** The SWOT tool: a list of the user's analyses and an editor. */
export default function SwotView({ tool }: ToolViewProps) {
  const [editing, setEditing] = useState<Analysis | 'new' | null>(null)
  const list = useQuery({
    queryKey: key,
    queryFn: () => toolFetch<{ analyses: Analysis[] }>(tool.id, 'analyses').then((r) => r.analyses),
    // The list restored from the persisted cache may predate the last save
    // (its write is debounced): always ask the server again on opening.
    staleTime: 0,
  })
  if (editing) {
    return <Editor toolId={tool.id} initial={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
  }
  return (
    <div className="flex flex-col gap-4">
      <Button className="self-start" onClick={() => setEditing('new')}>
        <Plus aria-hidden="true" className="size-4" /> Nova análise
      </Button>
      {list.isPending && <Spinner />}
      {list.error && <p role="alert">{list.error.message}</p>}
      {list.data?.length === 0 && <p className="text-muted-foreground">Você ainda não criou nenhuma análise SWOT.</p>}
      <ul className="flex flex-col gap-2" aria-label="Minhas análises">
        {list.data?.map((a) => (
          <li key={a.id}>
            <button
              type="button"
              onClick={() => setEditing(a)}
              className="flex w-full items-center justify-between rounded-xl border border-border bg-card p-4 text-left hover:bg-muted"
            >
              <span className="font-medium">{a.title}</span>
              <span className="text-sm text-muted-foreground">
                Atualizada em {new Date(a.updated_at).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' })}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}

function Editor({ toolId, initial, onClose }: { toolId: string; initial?: Analysis; onClose: () => void }) {
  const qc = useQueryClient()
  const [saved, setSaved] = useState(initial)
  const [title, setTitle] = useState(initial?.title ?? '')
  const [quadrants, setQuadrants] = useState<Quadrants>(() => ({ ...empty(), ...initial?.quadrants }))
  const [drafts, setDrafts] = useState<Record<QuadrantKey, string>>(noDrafts)
  const [error, setError] = useState<ApiError>()
  const [notice, setNotice] = useState<string>()
  const [baseline, setBaseline] = useState(() => snapshot(initial?.title ?? '', initial?.quadrants ?? empty()))
  const [confirmDelete, setConfirmDelete] = useState(false)
  const [confirmBack, setConfirmBack] = useState(false)

  const pending = Object.values(drafts).some((d) => d.trim() !== '')
  const dirty = pending || snapshot(title, quadrants) !== baseline

  // Leaving with unsaved changes asks first: in-app navigation through the
  // router's blocker, closing or reloading the tab through beforeunload.
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname)
  useEffect(() => {
    if (!dirty) return
    const warn = (e: BeforeUnloadEvent) => {
      e.preventDefault()
      e.returnValue = ''
    }
    window.addEventListener('beforeunload', warn)
    return () => window.removeEventListener('beforeunload', warn)
  }, [dirty])
  const leaveOpen = blocker.state === 'blocked' || confirmBack
  const stay = () => {
    if (blocker.state === 'blocked') blocker.reset()
    setConfirmBack(false)
  }
  const leave = () => {
    if (blocker.state === 'blocked') blocker.proceed()
    else {
      setConfirmBack(false)
      onClose()
    }
  }

  const save = useMutation({
    mutationFn: (body: { title: string; quadrants: Quadrants }) =>
      saved
        ? toolFetch<Analysis>(toolId, `analyses/${saved.id}`, { method: 'PUT', body: { ...body, version: saved.version } })
        : toolFetch<Analysis>(toolId, 'analyses', { method: 'POST', body }),
    onSuccess: (a, body) => {
      setSaved(a)
      setBaseline(snapshot(body.title, body.quadrants))
      setError(undefined)
      setNotice('Análise salva.')
      void qc.invalidateQueries({ queryKey: key })
    },
    onError: (err) => {
      setNotice(undefined)
      setError(err instanceof ApiError ? err : new ApiError(0, 'internal', 'Erro ao processar requisição. Tente novamente.'))
    },
  })
  const remove = useMutation({
    mutationFn: () => toolFetch<void>(toolId, `analyses/${saved!.id}`, { method: 'DELETE' }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: key })
      onClose()
    },
    onError: (err) => setError(err instanceof ApiError ? err : undefined),
  })

  const update = (q: QuadrantKey, items: string[]) => {
    setNotice(undefined)
    setQuadrants((prev) => ({ ...prev, [q]: items }))
  }
  const add = (q: QuadrantKey) => {
    const text = drafts[q].trim()
    if (!text) return
    update(q, [...quadrants[q], text])
    setDrafts((d) => ({ ...d, [q]: '' }))
  }
  // An item typed but not yet added is saved too: it joins its quadrant first.
  const submitSave = () => {
    const next = { ...quadrants }
    for (const { key: q } of QUADRANTS) {
      const text = drafts[q].trim()
      if (text) next[q] = [...next[q], text]
    }
    if (pending) {
      setQuadrants(next)
      setDrafts(noDrafts())
    }
    save.mutate({ title, quadrants: next })
  }
  const move = (q: QuadrantKey, i: number, by: number) => {
    const items = [...quadrants[q]]
    const j = i + by
    if (j < 0 || j >= items.length) return
    ;[items[i], items[j]] = [items[j]!, items[i]!]
    update(q, items)
  }

  return (
    <div className="flex flex-col gap-4">
      <style>{PRINT_CSS}</style>
      <div className="flex flex-wrap gap-2 print:hidden" data-print-hide>
        <Button variant="outline" onClick={() => (dirty ? setConfirmBack(true) : onClose())}>
          Voltar
        </Button>
        <Button onClick={submitSave} loading={save.isPending}>
          Salvar análise
        </Button>
        <Button variant="outline" onClick={() => window.print()}>
          <Printer aria-hidden="true" className="size-4" /> Imprimir
        </Button>
        {saved && (
          <Button variant="destructive" onClick={() => setConfirmDelete(true)}>
            <Trash2 aria-hidden="true" className="size-4" /> Excluir
          </Button>
        )}
      </div>
      <Dialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Excluir esta análise?"
        description="Esta ação não pode ser desfeita."
        footer={
          <>
            <Button variant="outline" onClick={() => setConfirmDelete(false)}>
              Cancelar
            </Button>
            <Button
              variant="destructive"
              loading={remove.isPending}
              onClick={() => {
                setConfirmDelete(false)
                remove.mutate()
              }}
            >
              Excluir análise
            </Button>
          </>
        }
      />
      <Dialog
        open={leaveOpen}
        onOpenChange={(open) => {
          if (!open) stay()
        }}
        title="Sair sem salvar?"
        description="Esta análise tem alterações que ainda não foram salvas. Se sair agora, elas serão perdidas."
        footer={
          <>
            <Button variant="outline" onClick={stay}>
              Continuar editando
            </Button>
            <Button variant="destructive" onClick={leave}>
              Sair sem salvar
            </Button>
          </>
        }
      />
      {notice && (
        <p role="status" className="text-sm text-green-700 print:hidden">
          {notice}
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-destructive print:hidden">
          {error.message}
        </p>
      )}
      <div className="print:hidden">
        <Input label="Título da análise" value={title} onChange={(e) => setTitle(e.target.value)} error={error?.fields.title} maxLength={120} />
      </div>
      <h2 className="hidden text-2xl font-bold print:block">{title}</h2>
      <div className="grid gap-4 md:grid-cols-2 print:grid-cols-2">
        {QUADRANTS.map(({ key: q, label, tone }) => (
          <Card key={q} className={cn('border-t-4 print:break-inside-avoid print:shadow-none', tone)}>
            <CardHeader>
              <CardTitle>{label}</CardTitle>
            </CardHeader>
            <CardContent className="flex flex-col gap-2">
              <ol className="flex flex-col gap-1" aria-label={label}>
                {quadrants[q].map((item, i) => (
                  <li key={`${i}-${item}`} className="flex items-start gap-1 rounded-lg bg-muted px-2 py-1 text-sm">
                    <span className="flex-1 py-1">{item}</span>
                    <span className="flex print:hidden">
                      <IconButton label={`Mover "${item}" para cima`} onClick={() => move(q, i, -1)} disabled={i === 0}>
                        <ArrowUp className="size-4" />
                      </IconButton>
                      <IconButton label={`Mover "${item}" para baixo`} onClick={() => move(q, i, 1)} disabled={i === quadrants[q].length - 1}>
                        <ArrowDown className="size-4" />
                      </IconButton>
                      <IconButton label={`Remover "${item}"`} onClick={() => update(q, quadrants[q].filter((_, j) => j !== i))}>
                        <X className="size-4" />
                      </IconButton>
                    </span>
                  </li>
                ))}
              </ol>
              {error?.fields[q] && <p className="text-sm text-destructive">{error.fields[q]}</p>}
              <form
                className="flex items-end gap-2 print:hidden"
                onSubmit={(e) => {
                  e.preventDefault()
                  add(q)
                }}
              >
                <div className="flex-1">
                  <Input label={`Novo item em ${label}`} value={drafts[q]} maxLength={500} onChange={(e) => setDrafts((d) => ({ ...d, [q]: e.target.value }))} />
                </div>
                <Button type="submit" variant="outline" aria-label={`Adicionar em ${label}`}>
                  <Plus aria-hidden="true" className="size-4" />
                </Button>
              </form>
            </CardContent>
          </Card>
        ))}
      </div>
    </div>
  )
}

function IconButton({ label, onClick, disabled, children }: { label: string; onClick: () => void; disabled?: boolean; children: React.ReactNode }) {
  return (
    <button type="button" aria-label={label} title={label} onClick={onClick} disabled={disabled} className="rounded p-1 hover:bg-background disabled:opacity-30">
      {children}
    </button>
  )
}
