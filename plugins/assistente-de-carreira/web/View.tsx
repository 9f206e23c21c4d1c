import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Download } from 'lucide-react'
import { Link } from 'react-router'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/ui/toast'
import { toolFetch, type ToolViewProps } from '@/features/ferramentas'

interface Questionnaire { goals: string; region: string; experience: string; areas: string; specialties: string; crmv: string; bio: string; education: string }
interface Doc { id: string; kind: 'plano' | 'curriculo' | 'carta'; version: number; title: string; content: Record<string, unknown>; created_at: string }
interface Turn { pergunta: string; resposta?: string; feedback?: string; pontos_fortes?: string[]; melhorar?: string[]; nota?: number }
interface Interview { id: string; job: string; turns: Turn[]; done: boolean }
interface JobChoice { id: string; title: string; organization: string; city: string; state: string; url: string }
interface PlanCourse { titulo: string; url: string }

const field = 'w-full rounded-md border border-border bg-background px-3 py-2 text-sm'
const TABS = [
  ['perfil', 'Perfil'],
  ['plano', 'Plano de carreira'],
  ['curriculo', 'Currículo'],
  ['entrevista', 'Entrevista'],
  ['carta', 'Carta'],
] as const
type Tab = (typeof TABS)[number][0]
const LABELS: Record<string, string> = {
  resumo: 'Resumo', areas_em_alta: 'Áreas em alta', cursos_vetclube: 'Cursos do VetClube', aviso_cursos: 'Cursos do VetClube', certificacoes: 'Certificações',
  caminhos: 'Residência e especialização', proximos_passos: 'Próximos passos', resumo_profissional: 'Resumo profissional', experiencias: 'Experiência',
  formacao: 'Formação', competencias: 'Competências', dicas: 'Dicas', carta: 'Carta',
}

/** Assistente de Carreira: plan, CV (PDF), interview practice and cover letter. */
export default function CareerView({ tool }: ToolViewProps) {
  const [tab, setTab] = useState<Tab>('perfil')
  return (
    <div className="flex flex-col gap-4">
      <div role="tablist" aria-label="Seções" className="flex flex-wrap gap-2">
        {TABS.map(([id, label]) => (
          <Button key={id} role="tab" aria-selected={tab === id} variant={tab === id ? 'primary' : 'outline'} size="sm" onClick={() => setTab(id)}>
            {label}
          </Button>
        ))}
      </div>
      {tab === 'perfil' && <QuestionnaireForm toolId={tool.id} />}
      {(tab === 'plano' || tab === 'curriculo' || tab === 'carta') && <Documents toolId={tool.id} kind={tab} />}
      {tab === 'entrevista' && <Practice toolId={tool.id} />}
    </div>
  )
}

function QuestionnaireForm({ toolId }: { toolId: string }) {
  const q = useQuery({
    queryKey: ['tools', toolId, 'questionnaire'],
    queryFn: () => toolFetch<{ questionnaire: Questionnaire; profile: { name: string; title: string } }>(toolId, 'questionnaire'),
  })
  const [draft, setDraft] = useState<Questionnaire>()
  const save = useMutation({
    mutationFn: (body: Questionnaire) => toolFetch<Questionnaire>(toolId, 'questionnaire', { method: 'PUT', body }),
    onSuccess: () => toast({ title: 'Perfil de carreira salvo.', variant: 'success' }),
  })
  if (q.isPending) return <Spinner />
  if (q.error) return <p role="alert">{q.error.message}</p>
  const v = draft ?? q.data.questionnaire
  const set = (k: keyof Questionnaire) => (e: { target: { value: string } }) => setDraft({ ...v, [k]: e.target.value })
  const area = (k: keyof Questionnaire, label: string) => (
    <label className="flex flex-col gap-1 text-sm">
      {label}
      <textarea className={field} rows={2} value={v[k]} onChange={set(k)} />
    </label>
  )
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          {q.data.profile.name || 'Seu perfil'} {q.data.profile.title && `· ${q.data.profile.title}`}
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-3 md:grid-cols-2">
        {area('goals', 'Objetivo')}
        <Input label="Região" value={v.region} onChange={set('region')} />
        {area('experience', 'Experiência')}
        {area('areas', 'Áreas de interesse')}
        {area('specialties', 'Especialidades')}
        <Input label="CRMV" value={v.crmv} placeholder="CRMV-SP 12345" onChange={set('crmv')} />
        {area('education', 'Formação')}
        {area('bio', 'Bio')}
        <Button className="self-start" disabled={save.isPending} onClick={() => save.mutate(v)}>
          Salvar
        </Button>
        {save.error && <p role="alert">{save.error.message}</p>}
      </CardContent>
    </Card>
  )
}

function Documents({ toolId, kind }: { toolId: string; kind: 'plano' | 'curriculo' | 'carta' }) {
  const qc = useQueryClient()
  const key = ['tools', toolId, 'documents', kind]
  const docs = useQuery({ queryKey: key, queryFn: () => toolFetch<{ documents: Doc[] }>(toolId, `documents?kind=${kind}`).then((r) => r.documents) })
  const [job, setJob] = useState('')
  const [description, setDescription] = useState('')
  const [jobId, setJobId] = useState('')
  const [open, setOpen] = useState<string>()
  const jobs = useQuery({
    queryKey: ['tools', toolId, 'jobs'],
    queryFn: () => toolFetch<{ items: JobChoice[]; available: boolean }>(toolId, 'jobs'),
    enabled: kind === 'carta',
  })
  const gen = useMutation({
    mutationFn: () =>
      toolFetch<Doc>(toolId, 'documents', { method: 'POST', body: jobId ? { kind, job_id: jobId } : { kind, job, description } }),
    onSuccess: (d) => {
      setOpen(d.id)
      void qc.invalidateQueries({ queryKey: key })
    },
  })
  const label = kind === 'plano' ? 'Gerar plano de carreira' : kind === 'curriculo' ? 'Melhorar meu currículo' : 'Escrever carta de apresentação'
  return (
    <Card>
      <CardContent className="flex flex-col gap-3 pt-4">
        {kind === 'carta' && (
          <>
            {jobs.data?.available && jobs.data.items.length > 0 && (
              <label className="flex flex-col gap-1 text-sm">
                Vaga de Oportunidades
                <select className={field} value={jobId} onChange={(e) => setJobId(e.target.value)}>
                  <option value="">Outra vaga (descrever abaixo)</option>
                  {jobs.data.items.map((j) => (
                    <option key={j.id} value={j.id}>
                      {[j.title, j.organization, [j.city, j.state].filter(Boolean).join('/')].filter(Boolean).join(' — ')}
                    </option>
                  ))}
                </select>
              </label>
            )}
            {!jobId && (
              <>
                <Input label="Vaga (de Oportunidades ou outra)" value={job} onChange={(e) => setJob(e.target.value)} />
                <label className="flex flex-col gap-1 text-sm">
                  Descrição da vaga (cole o texto do anúncio)
                  <textarea className={field} rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />
                </label>
              </>
            )}
          </>
        )}
        <div className="flex items-center gap-2">
          <Button disabled={gen.isPending} onClick={() => gen.mutate()}>
            {label}
          </Button>
          {gen.isPending && <Spinner />}
        </div>
        {gen.error && (
          <p role="alert" className="text-sm text-destructive">
            {gen.error.message}
          </p>
        )}
        <ul aria-label="Versões salvas" className="flex flex-col gap-2">
          {docs.data?.map((d) => (
            <li key={d.id} className="rounded-lg border border-border p-3 text-sm">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <button type="button" className="font-medium" onClick={() => setOpen(open === d.id ? undefined : d.id)}>
                  {d.title} · versão {d.version} · {new Date(d.created_at).toLocaleDateString('pt-BR')}
                </button>
                {d.kind === 'curriculo' && (
                  <a className={buttonClasses('secondary', 'sm')} href={`/api/tools/${toolId}/documents/${d.id}/pdf`} download={`curriculo-v${d.version}.pdf`}>
                    <Download aria-hidden="true" className="size-4" /> Baixar PDF
                  </a>
                )}
              </div>
              {open === d.id && <DocBody content={d.content} />}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  )
}

function DocBody({ content }: { content: Record<string, unknown> }) {
  const links = Array.isArray(content.cursos_links) ? (content.cursos_links as PlanCourse[]) : []
  const jobUrl = typeof content.vaga_url === 'string' ? content.vaga_url : ''
  return (
    <dl className="mt-2 flex flex-col gap-2">
      {Object.entries(content).map(([k, v]) =>
        k === 'cursos_vetclube' && links.length > 0 ? (
          <div key={k}>
            <dt className="font-medium">{LABELS[k]}</dt>
            <dd>
              <ul className="flex flex-col gap-1">
                {links.map((c) => (
                  <li key={c.url || c.titulo}>
                    {c.url ? (
                      <Link className="text-primary underline" to={c.url}>
                        {c.titulo}
                      </Link>
                    ) : (
                      c.titulo
                    )}
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        ) : LABELS[k] && (Array.isArray(v) ? v.length > 0 : Boolean(v)) ? (
          <div key={k}>
            <dt className="font-medium">{LABELS[k]}</dt>
            <dd className="whitespace-pre-wrap">{Array.isArray(v) ? v.map((x) => `• ${String(x)}`).join('\n') : String(v)}</dd>
          </div>
        ) : null,
      )}
      {jobUrl && (
        <Link className="text-primary underline" to={jobUrl}>
          Ver a vaga em Oportunidades
        </Link>
      )}
    </dl>
  )
}

function Practice({ toolId }: { toolId: string }) {
  const [job, setJob] = useState('')
  const [iv, setIv] = useState<Interview>()
  const [answer, setAnswer] = useState('')
  const start = useMutation({
    mutationFn: () => toolFetch<Interview>(toolId, 'interviews', { method: 'POST', body: { job } }),
    onSuccess: setIv,
  })
  const send = useMutation({
    mutationFn: () => toolFetch<Interview>(toolId, `interviews/${iv!.id}/answer`, { method: 'POST', body: { answer } }),
    onSuccess: (r) => {
      setIv(r)
      setAnswer('')
    },
  })
  const current = iv?.turns[iv.turns.length - 1]
  return (
    <Card>
      <CardContent className="flex flex-col gap-3 pt-4 text-sm">
        {!iv && (
          <>
            <Input label="Vaga para treinar" value={job} onChange={(e) => setJob(e.target.value)} />
            <Button className="self-start" disabled={start.isPending} onClick={() => start.mutate()}>
              Começar treino
            </Button>
            {start.error && <p role="alert">{start.error.message}</p>}
          </>
        )}
        {iv?.turns.map((t, i) => (
          <div key={i} className="rounded-lg border border-border p-3">
            <p className="font-medium">
              Pergunta {i + 1}: {t.pergunta}
            </p>
            {t.resposta && <p className="mt-1 whitespace-pre-wrap text-muted-foreground">{t.resposta}</p>}
            {t.feedback && (
              <div className="mt-2">
                <p>
                  <strong>Feedback{t.nota !== undefined ? ` (nota ${t.nota}/10)` : ''}:</strong> {t.feedback}
                </p>
                {t.melhorar && t.melhorar.length > 0 && <p>Para melhorar: {t.melhorar.join('; ')}</p>}
              </div>
            )}
          </div>
        ))}
        {iv && current && !current.resposta && (
          <>
            <label className="flex flex-col gap-1">
              Sua resposta
              <textarea className={field} rows={4} value={answer} onChange={(e) => setAnswer(e.target.value)} />
            </label>
            <Button className="self-start" disabled={send.isPending || answer.trim().length < 2} onClick={() => send.mutate()}>
              Enviar resposta
            </Button>
            {send.error && <p role="alert">{send.error.message}</p>}
          </>
        )}
        {iv?.done && <p>Treino concluído. Comece outro quando quiser.</p>}
      </CardContent>
    </Card>
  )
}
