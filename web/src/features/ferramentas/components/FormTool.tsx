import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useSearchParams } from 'react-router'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { ApiError } from '@/lib/api'
import { cn } from '@/lib/cn'
import { type Tool, type ToolField, type ToolForm, type ToolResult } from '../api'
import { OFFLINE_NOTE, useOfflineTool } from '../offline'
import { initialValues, isVisible, payload, validate, type Values } from './validate'

/** The search parameter that names the open tab, so reload and back/forward keep it. */
export const TAB_PARAM = 'aba'

/**
 * The generic renderer: every form of a form tool, chosen with tabs. The open
 * tab lives in the URL (?aba=<form id>); every tab's typed inputs live here,
 * so switching tabs and coming back keeps them.
 */
export function FormTool({ tool }: { tool: Tool }) {
  const forms = tool.ui_schema?.forms ?? []
  const [params, setParams] = useSearchParams()
  const [inputs, setInputs] = useState<Record<string, Values>>({})
  const form = forms.find((f) => f.id === params.get(TAB_PARAM)) ?? forms[0]
  if (!form) return <p>Esta ferramenta não tem formulários.</p>
  const open = (id: string) => {
    if (id === form.id) return
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev)
        next.set(TAB_PARAM, id)
        return next
      },
      { preventScrollReset: true },
    )
  }
  const values = inputs[form.id] ?? initialValues(form.fields)
  const setValues = (update: (prev: Values) => Values) =>
    setInputs((all) => ({ ...all, [form.id]: update(all[form.id] ?? initialValues(form.fields)) }))
  return (
    <div className="flex flex-col gap-4">
      {forms.length > 1 && (
        <div role="tablist" aria-label="Calculadoras" className="flex flex-wrap gap-2 print:hidden">
          {forms.map((f) => (
            <button
              key={f.id}
              role="tab"
              type="button"
              aria-selected={f.id === form.id}
              onClick={() => open(f.id)}
              className={cn(
                'rounded-full border px-3 py-1.5 text-sm font-medium',
                f.id === form.id ? 'border-primary bg-primary text-primary-foreground' : 'border-border bg-card hover:bg-muted',
              )}
            >
              {f.title}
            </button>
          ))}
        </div>
      )}
      <RenderedForm key={form.id} toolId={tool.id} form={form} values={values} setValues={setValues} />
    </div>
  )
}

/** What the screen reader hears when a result is shown or withdrawn. */
function summary(result: ToolResult): string {
  return 'Resultado: ' + result.values.map((v) => `${v.label}: ${v.display}`).join('; ') + '.'
}

const STALE = 'O resultado anterior foi removido porque os dados mudaram. Calcule novamente.'

function RenderedForm({
  toolId,
  form,
  values,
  setValues,
}: {
  toolId: string
  form: ToolForm
  values: Values
  setValues: (update: (prev: Values) => Values) => void
}) {
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [message, setMessage] = useState<string>()
  const [result, setResult] = useState<ToolResult>()
  const [announcement, setAnnouncement] = useState('')
  const [stale, setStale] = useState(false)
  const [pending, setPending] = useState(false)
  // Offline, the tool's own handler answers on this device (../offline.ts).
  const tool = useOfflineTool(toolId)
  // Every edit bumps the version; an answer computed from older inputs is
  // dropped, so a dose never belongs to values that are no longer on screen.
  const version = useRef(0)
  const hadResult = useRef(false)
  hadResult.current = result !== undefined

  // A result is only ever shown for the inputs currently on screen: any edit
  // withdraws it at once (patient safety: a stale dose must never look current).
  const withdraw = () => {
    version.current += 1
    if (hadResult.current) {
      setResult(undefined)
      setStale(true)
      setAnnouncement(STALE)
    }
  }

  const set = (name: string, v: string | boolean) => {
    withdraw()
    setValues((prev) => ({ ...prev, [name]: v }))
    setErrors((prev) => {
      const { [name]: _, ...rest } = prev
      return rest
    })
  }

  async function submit(e: FormEvent) {
    e.preventDefault()
    const found = validate(form.fields, values)
    setErrors(found)
    setMessage(undefined)
    if (Object.keys(found).length > 0) {
      // A failing check withdraws any earlier result: it answered other inputs.
      withdraw()
      setMessage('Verifique os campos destacados.')
      return
    }
    const asked = ++version.current
    setPending(true)
    try {
      const answer = await tool.call<ToolResult>(form.action, { method: 'POST', body: payload(form.fields, values) })
      if (asked !== version.current) return
      setResult(answer)
      setStale(false)
      setAnnouncement(summary(answer))
    } catch (err) {
      if (asked !== version.current) return
      setResult(undefined)
      setAnnouncement('')
      if (err instanceof ApiError) {
        setErrors(err.fields)
        setMessage(err.message)
      } else {
        setMessage('Erro ao processar requisição. Tente novamente.')
      }
    } finally {
      setPending(false)
    }
  }

  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>{form.title}</CardTitle>
          {form.description && <CardDescription>{form.description}</CardDescription>}
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label={form.title}>
            {form.fields
              .filter((f) => isVisible(f, values))
              .map((f) => (
                <FieldInput key={f.name} field={f} value={values[f.name]} error={errors[f.name]} onChange={(v) => set(f.name, v)} />
              ))}
            {message && (
              <p role="alert" className="text-sm text-destructive">
                {message}
              </p>
            )}
            <Button type="submit" loading={pending} className="self-start">
              {form.submit ?? 'Calcular'}
            </Button>
          </form>
        </CardContent>
      </Card>
      {/* Always in the page, so assistive technology announces each change
          (a live region inserted together with its text is often missed). */}
      <p role="status" aria-live="polite" aria-atomic="true" className="sr-only">
        {announcement}
      </p>
      {result && <ResultCard result={result} />}
      {result && tool.offline && <p className="text-sm text-muted-foreground lg:col-start-2">{OFFLINE_NOTE}</p>}
      {!result && stale && (
        <Card className="border-dashed">
          <CardContent className="p-5 text-sm text-muted-foreground">{STALE}</CardContent>
        </Card>
      )}
    </div>
  )
}

function FieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: ToolField
  value: string | boolean | undefined
  error?: string
  onChange: (v: string | boolean) => void
}) {
  const id = useId()
  const label = field.unit ? `${field.label} (${field.unit})` : field.label
  if (field.type === 'select') {
    return (
      <div className="flex flex-col gap-1.5">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <select
          id={id}
          value={String(value ?? '')}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="h-10 rounded-lg border border-input bg-background px-3 text-sm"
        >
          <option value="">Selecione…</option>
          {field.options?.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
        {error && (
          <p id={`${id}-error`} className="text-sm text-destructive">
            {error}
          </p>
        )}
      </div>
    )
  }
  if (field.type === 'boolean') {
    return (
      <label className="flex items-center gap-2 text-sm font-medium">
        <input type="checkbox" checked={Boolean(value)} onChange={(e) => onChange(e.target.checked)} className="size-4" />
        {label}
        {error && <span className="text-destructive">{error}</span>}
      </label>
    )
  }
  return (
    <Input
      label={label}
      type={field.type === 'date' ? 'date' : 'text'}
      inputMode={field.type === 'number' ? 'decimal' : undefined}
      value={String(value ?? '')}
      onChange={(e) => onChange(e.target.value)}
      error={error}
      hint={field.help}
      required={field.required}
    />
  )
}

function ResultCard({ result }: { result: ToolResult }) {
  const card = useRef<HTMLDivElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  // On a phone the result sits below the form: bring it into view and move
  // focus to its heading, so it is plain that something happened. The scroll
  // margins keep it clear of the fixed top bar and bottom navigation.
  useEffect(() => {
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches
    heading.current?.focus({ preventScroll: true })
    card.current?.scrollIntoView?.({ block: 'start', behavior: reduce ? 'auto' : 'smooth' })
  }, [result])
  const titleId = useId()
  return (
    <section ref={card} aria-labelledby={titleId} className="scroll-mb-28 scroll-mt-20">
      <Card>
        <CardHeader>
          <h2
            id={titleId}
            ref={heading}
            tabIndex={-1}
            className="rounded text-lg font-semibold leading-tight outline-none focus-visible:ring-2 focus-visible:ring-ring"
          >
            Resultado
          </h2>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            {result.values.map((v) => (
              <div key={v.label} className="rounded-xl bg-muted p-3">
                <dt className="text-sm text-muted-foreground">{v.label}</dt>
                <dd className="text-xl font-semibold">{v.display}</dd>
              </div>
            ))}
          </dl>
          {result.tables?.map((t) => (
            <table key={t.title} className="w-full text-sm">
              <caption className="mb-2 text-left font-medium">{t.title}</caption>
              <thead>
                <tr>
                  {t.columns.map((c) => (
                    <th key={c} scope="col" className="border-b border-border py-1 text-left">
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {t.rows.map((row, i) => (
                  <tr key={i}>
                    {row.map((cell, j) => (
                      <td key={j} className="border-b border-border py-1">
                        {cell}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          ))}
          {result.explanation && <p className="text-sm">{result.explanation}</p>}
          {result.reference && <p className="text-xs text-muted-foreground">Referência: {result.reference}</p>}
        </CardContent>
      </Card>
    </section>
  )
}
