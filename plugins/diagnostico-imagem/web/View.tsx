import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { AlertTriangle, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api'
import { toolFetch, type ToolViewProps } from '@/features/ferramentas'

interface Opt { id: string; label: string }
interface Options { exams: Opt[]; species: Opt[]; regions: Opt[]; disclaimer: string; max_bytes: number; types: string[] }
interface Differential { diagnostico: string; probabilidade: string; raciocinio: string }
interface Result { achados: string[]; diferenciais: Differential[]; exames: string[]; observacoes: string; aviso: string }
interface Case {
  id: string
  file_id: string
  exam: string
  species: string
  region: string
  question: string
  status: 'analisado' | 'recusado'
  result: Partial<Result>
  refusal: string
  created_at: string
}

const field = 'w-full rounded-md border border-border bg-background px-3 py-2 text-sm'
const DISCLAIMER = 'Achados sugestivos — confirmar com laudo de um médico-veterinário radiologista.'

function Disclaimer({ text = DISCLAIMER }: { text?: string }) {
  return (
    <p role="note" className="flex items-start gap-2 rounded-lg border border-amber-500 bg-amber-50 p-3 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200">
      <AlertTriangle aria-hidden="true" className="mt-0.5 size-4 shrink-0" /> {text}
    </p>
  )
}

/** Diagnóstico por Imagem: a structured second look at an uploaded image. */
export default function ImagingView({ tool }: ToolViewProps) {
  const qc = useQueryClient()
  const options = useQuery({ queryKey: ['tools', tool.id, 'options'], queryFn: () => toolFetch<Options>(tool.id, 'options') })
  const cases = useQuery({
    queryKey: ['tools', tool.id, 'cases'],
    queryFn: () => toolFetch<{ cases: Case[] }>(tool.id, 'cases').then((r) => r.cases),
  })
  const [file, setFile] = useState<File>()
  const [fileError, setFileError] = useState<string>()
  const [form, setForm] = useState({ exam: 'radiografia', species: 'cao', region: 'torax', question: '' })
  const [current, setCurrent] = useState<Case>()
  const analyse = useMutation({
    mutationFn: async () => {
      if (!file) throw new ApiError(422, 'invalid', 'Escolha a imagem do exame.')
      const fd = new FormData()
      fd.append('file', file)
      const up = await toolFetch<{ id: string }>(tool.id, 'files', { method: 'POST', form: fd })
      return toolFetch<{ case: Case }>(tool.id, 'cases', { method: 'POST', body: { ...form, file_id: up.id, client_id: crypto.randomUUID() } })
    },
    onSuccess: (r) => {
      setCurrent(r.case)
      void qc.invalidateQueries({ queryKey: ['tools', tool.id, 'cases'] })
    },
  })
  const remove = useMutation({
    mutationFn: async (c: Case) => {
      await toolFetch(tool.id, `cases/${c.id}`, { method: 'DELETE' })
      // The image goes with the case; one already gone is fine.
      await toolFetch(tool.id, `files/${c.file_id}`, { method: 'DELETE' }).catch((e: unknown) => {
        if (!(e instanceof ApiError && e.status === 404)) throw e
      })
    },
    onSuccess: (_, c) => {
      if (current?.id === c.id) setCurrent(undefined)
      void qc.invalidateQueries({ queryKey: ['tools', tool.id, 'cases'] })
    },
  })
  if (options.isPending) return <Spinner />
  if (options.error) return <p role="alert">{options.error.message}</p>
  const o = options.data
  const label = (list: Opt[], id: string) => list.find((x) => x.id === id)?.label ?? id
  const set = (k: string) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }))
  const pick = (f?: File) => {
    setFileError(undefined)
    setFile(undefined)
    if (!f) return
    if (!o.types.includes(f.type)) return setFileError('Envie uma imagem JPEG, PNG ou WebP.')
    if (f.size > o.max_bytes) return setFileError('A imagem deve ter no máximo 10 MB.')
    setFile(f)
  }
  return (
    <div className="flex flex-col gap-4">
      <Disclaimer text={o.disclaimer} />
      <Card>
        <CardHeader>
          <CardTitle>Novo caso</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3 md:grid-cols-2">
          <label className="flex flex-col gap-1 text-sm md:col-span-2">
            Imagem (JPEG, PNG ou WebP, até 10 MB)
            <input type="file" accept="image/jpeg,image/png,image/webp" onChange={(e) => pick(e.target.files?.[0])} />
          </label>
          {fileError && (
            <p role="alert" className="text-sm text-destructive md:col-span-2">
              {fileError}
            </p>
          )}
          <label className="flex flex-col gap-1 text-sm">
            Exame
            <select className={field} value={form.exam} onChange={set('exam')}>
              {o.exams.map((x) => (
                <option key={x.id} value={x.id}>{x.label}</option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Espécie
            <select className={field} value={form.species} onChange={set('species')}>
              {o.species.map((x) => (
                <option key={x.id} value={x.id}>{x.label}</option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm">
            Região
            <select className={field} value={form.region} onChange={set('region')}>
              {o.regions.map((x) => (
                <option key={x.id} value={x.id}>{x.label}</option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm md:col-span-2">
            Pergunta clínica
            <textarea className={field} rows={3} maxLength={1000} value={form.question} onChange={set('question')} />
          </label>
          <div className="flex items-center gap-2 md:col-span-2">
            <Button disabled={analyse.isPending || !file} onClick={() => analyse.mutate()}>
              Analisar imagem
            </Button>
            {analyse.isPending && <Spinner />}
          </div>
          {analyse.error && (
            <p role="alert" className="text-sm text-destructive md:col-span-2">
              {analyse.error.message}
            </p>
          )}
        </CardContent>
      </Card>
      {current && <CaseResult c={current} title={`${label(o.exams, current.exam)} · ${label(o.species, current.species)} · ${label(o.regions, current.region)}`} />}
      <Card>
        <CardHeader>
          <CardTitle>Meus casos</CardTitle>
        </CardHeader>
        <CardContent>
          {cases.data?.length === 0 && <p className="text-sm text-muted-foreground">Nenhum caso ainda.</p>}
          <ul aria-label="Meus casos" className="flex flex-col gap-2">
            {cases.data?.map((c) => (
              <li key={c.id} className="flex items-center justify-between gap-2 rounded-lg border border-border p-3 text-sm">
                <button type="button" className="flex-1 text-left" onClick={() => setCurrent(c)}>
                  <span className="font-medium">
                    {label(o.exams, c.exam)} · {label(o.species, c.species)}
                  </span>{' '}
                  <span className="text-muted-foreground">
                    {c.status === 'recusado' ? '(recusado)' : ''} {new Date(c.created_at).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' })}
                  </span>
                </button>
                <Button variant="ghost" size="sm" aria-label="Excluir caso e imagem" onClick={() => remove.mutate(c)}>
                  <Trash2 aria-hidden="true" className="size-4" />
                </Button>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  )
}

function CaseResult({ c, title }: { c: Case; title: string }) {
  if (c.status === 'recusado') {
    return (
      <Card>
        <CardHeader>
          <CardTitle>Imagem não analisada</CardTitle>
        </CardHeader>
        <CardContent>
          <p role="alert" className="text-sm">
            {c.refusal}
          </p>
        </CardContent>
      </Card>
    )
  }
  const r = c.result
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <Disclaimer text={r.aviso} />
        <section>
          <h3 className="font-medium">Achados</h3>
          <ul className="list-disc pl-5">{r.achados?.map((a) => <li key={a}>{a}</li>)}</ul>
        </section>
        <section>
          <h3 className="font-medium">Diagnósticos diferenciais</h3>
          <ol className="list-decimal pl-5">
            {r.diferenciais?.map((d) => (
              <li key={d.diagnostico}>
                <strong>{d.diagnostico}</strong> ({d.probabilidade}): {d.raciocinio}
              </li>
            ))}
          </ol>
        </section>
        <section>
          <h3 className="font-medium">Próximos exames sugeridos</h3>
          <ul className="list-disc pl-5">{r.exames?.map((a) => <li key={a}>{a}</li>)}</ul>
        </section>
        {r.observacoes && <p className="text-muted-foreground">{r.observacoes}</p>}
      </CardContent>
    </Card>
  )
}
