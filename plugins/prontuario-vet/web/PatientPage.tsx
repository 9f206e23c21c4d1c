import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { ArrowLeft, Archive, FileDown, History, MessageCircle, Pencil, Plus, Printer } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { Spinner } from '@/components/ui/Spinner'
import { ApiError } from '@/lib/api'
import { cn } from '@/lib/cn'
import { api, brDate, download, fileURL, num, type Meta, type Page, type Patient, type RecordRevision, type VetRecord, type VitalFlag } from './api'
import { PatientForm } from './PatientForm'
import { RecordForm } from './RecordForm'
import { WeightChart } from './WeightChart'

const sexLabel = { macho: 'Macho', femea: 'Fêmea', indefinido: 'Sexo não informado' }

/** One patient: identification, tutor, weight chart and the records, newest first. */
export function PatientPage({ meta, id, onBack }: { meta: Meta; id: string; onBack: () => void }) {
  const qc = useQueryClient()
  const base = ['tools', 'prontuario-vet', 'patient', id]
  const [page, setPage] = useState(1)
  const [editing, setEditing] = useState(false)
  const [adding, setAdding] = useState(false)
  const [correcting, setCorrecting] = useState<VetRecord>()
  const [error, setError] = useState<string>()
  const patient = useQuery({ queryKey: base, queryFn: () => api<Patient>(`patients/${id}`) })
  const records = useQuery({ queryKey: [...base, 'records', page], queryFn: () => api<Page<VetRecord>>(`patients/${id}/records?page=${page}&per_page=20`) })
  const weights = useQuery({ queryKey: [...base, 'weights'], queryFn: () => api<{ items: { date: string; kg: number }[] }>(`patients/${id}/weights`) })
  const refresh = () => qc.invalidateQueries({ queryKey: ['tools', 'prontuario-vet'] })

  if (patient.isPending) return <Spinner />
  if (patient.error)
    return (
      <div className="flex flex-col gap-3">
        <p role="alert">{patient.error.message}</p>
        <Button variant="outline" className="self-start" onClick={onBack}>
          Voltar aos pacientes
        </Button>
      </div>
    )
  const p = patient.data
  if (editing)
    return (
      <PatientForm
        meta={meta}
        initial={p}
        onCancel={() => setEditing(false)}
        onSaved={() => {
          setEditing(false)
          void refresh()
        }}
      />
    )
  const pages = records.data ? Math.max(1, Math.ceil(records.data.total / records.data.per_page)) : 1
  const archive = async () => {
    setError(undefined)
    try {
      await api<Patient>(`patients/${p.id}/${p.archived ? 'unarchive' : 'archive'}`, { method: 'POST' })
      void refresh()
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e))
    }
  }
  const run = (f: () => Promise<void>) => {
    setError(undefined)
    f().catch((e: Error) => setError(e.message))
  }

  return (
    <div className="flex flex-col gap-6">
      <Button variant="link" size="sm" className="self-start px-0" onClick={onBack}>
        <ArrowLeft aria-hidden="true" className="size-4" /> Pacientes
      </Button>
      <Card>
        <CardHeader>
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle className="text-xl font-bold">{p.name}</CardTitle>
            <Badge variant="outline">{p.species_label}</Badge>
            {p.archived && <Badge variant="warning">Arquivado</Badge>}
          </div>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <div className="flex flex-col gap-4 sm:flex-row">
            {p.data.photo_file_id && <img src={fileURL(p.data.photo_file_id)} alt={`Foto de ${p.name}`} className="size-28 rounded-xl object-cover" />}
            <dl className="grid flex-1 grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="font-medium">Raça</dt>
              <dd>{p.data.breed || '—'}</dd>
              <dt className="font-medium">Sexo</dt>
              <dd>
                {sexLabel[p.data.sex]}
                {p.data.neutered ? ', castrado(a)' : ''}
              </dd>
              <dt className="font-medium">Idade</dt>
              <dd>{p.data.birth_date ? `Nascimento em ${brDate(p.data.birth_date)}` : p.data.approx_age || '—'}</dd>
              <dt className="font-medium">Peso</dt>
              <dd>{p.latest_weight_kg != null ? `${num(p.latest_weight_kg)} kg` : '—'}</dd>
              <dt className="font-medium">Microchip</dt>
              <dd>{p.data.microchip || '—'}</dd>
              <dt className="font-medium">Pelagem</dt>
              <dd>{p.data.coat || '—'}</dd>
              <dt className="font-medium">Alergias</dt>
              <dd className={cn(p.data.allergies && 'font-semibold text-destructive')}>{p.data.allergies || 'Nenhuma informada'}</dd>
              <dt className="font-medium">Condições crônicas</dt>
              <dd>{p.data.chronic_conditions || '—'}</dd>
            </dl>
          </div>
          <section aria-label="Tutor" className="flex flex-col gap-1 text-sm">
            <h3 className="font-semibold">Tutor</h3>
            <p>{p.data.tutor.name || '—'}</p>
            {p.data.tutor.phone && (
              <p className="flex flex-wrap items-center gap-2">
                <a href={`tel:${p.data.tutor.phone}`}>{p.data.tutor.phone}</a>
                {p.whatsapp_url && (
                  <a href={p.whatsapp_url} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 text-green-800 underline dark:text-green-300">
                    <MessageCircle aria-hidden="true" className="size-4" /> WhatsApp
                  </a>
                )}
              </p>
            )}
            {p.data.tutor.email && <a href={`mailto:${p.data.tutor.email}`}>{p.data.tutor.email}</a>}
            {p.data.tutor.cpf && <p>CPF {p.data.tutor.cpf}</p>}
            {p.data.tutor.address && <p>{p.data.tutor.address}</p>}
          </section>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
              <Pencil aria-hidden="true" className="size-4" /> Editar
            </Button>
            <Button variant="outline" size="sm" onClick={() => run(() => download(`patients/${p.id}/pdf`, `prontuario-${p.name}.pdf`))}>
              <FileDown aria-hidden="true" className="size-4" /> Exportar prontuário (PDF)
            </Button>
            <Button variant="outline" size="sm" onClick={() => void archive()}>
              <Archive aria-hidden="true" className="size-4" /> {p.archived ? 'Reativar' : 'Arquivar'}
            </Button>
          </div>
          {error && (
            <p role="alert" className="text-destructive">
              {error}
            </p>
          )}
        </CardContent>
      </Card>
      <section aria-labelledby="pv-weights" className="flex flex-col gap-2">
        <h3 id="pv-weights" className="text-lg font-semibold">
          Histórico de peso
        </h3>
        <WeightChart points={weights.data?.items ?? []} />
      </section>
      <section aria-labelledby="pv-records" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h3 id="pv-records" className="text-lg font-semibold">
            Registros
          </h3>
          {!adding && (
            <Button size="sm" onClick={() => setAdding(true)}>
              <Plus aria-hidden="true" className="size-4" /> Novo registro
            </Button>
          )}
        </div>
        {adding && (
          <RecordForm
            meta={meta}
            patient={p}
            onCancel={() => setAdding(false)}
            onSaved={() => {
              setAdding(false)
              setPage(1)
              void refresh()
            }}
          />
        )}
        {records.isPending && <Spinner />}
        {records.data?.total === 0 && <p className="text-muted-foreground">Nenhum registro ainda.</p>}
        <ol className="flex flex-col gap-3" aria-label="Registros do paciente">
          {records.data?.items.map((r) =>
            correcting?.id === r.id ? (
              <li key={r.id}>
                <RecordForm
                  meta={meta}
                  patient={p}
                  initial={r}
                  onCancel={() => setCorrecting(undefined)}
                  onSaved={() => {
                    setCorrecting(undefined)
                    void refresh()
                  }}
                />
              </li>
            ) : (
              <li key={r.id}>
                <RecordCard record={r} patientName={p.name} onCorrect={() => setCorrecting(r)} onError={setError} />
              </li>
            ),
          )}
        </ol>
        {pages > 1 && (
          <nav aria-label="Páginas de registros" className="flex items-center gap-2">
            <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
              Anterior
            </Button>
            <span className="text-sm">
              Página {page} de {pages}
            </span>
            <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => setPage(page + 1)}>
              Próxima
            </Button>
          </nav>
        )}
      </section>
    </div>
  )
}

const VITALS: { key: string; label: string; unit: string }[] = [
  { key: 'temperature_c', label: 'Temperatura', unit: '°C' },
  { key: 'heart_rate', label: 'Frequência cardíaca', unit: 'bpm' },
  { key: 'respiratory_rate', label: 'Frequência respiratória', unit: 'mpm' },
]

function Vital({ label, unit, flag }: { label: string; unit: string; flag: VitalFlag }) {
  const out = flag.status === 'alto' || flag.status === 'baixo'
  return (
    <li data-status={flag.status} className={cn('rounded-lg border px-2 py-1 text-sm', out ? 'border-destructive bg-destructive/10 font-semibold text-destructive' : 'border-border')}>
      {label}: {num(flag.value, 1)} {unit}
      {flag.min != null && flag.max != null && (
        <span className="font-normal text-muted-foreground">
          {' '}
          (ref. {num(flag.min, 1)}–{num(flag.max, 1)})
        </span>
      )}
      {out && <span> — {flag.status === 'alto' ? 'acima da referência' : 'abaixo da referência'}</span>}
    </li>
  )
}

function Line({ label, value }: { label: string; value?: string | number }) {
  if (value == null || value === '') return null
  return (
    <p>
      <span className="font-medium">{label}:</span> {value}
    </p>
  )
}

function RecordCard({ record: r, patientName, onCorrect, onError }: { record: VetRecord; patientName: string; onCorrect: () => void; onError: (m: string) => void }) {
  const [history, setHistory] = useState<RecordRevision[]>()
  const d = r.data
  const showHistory = () =>
    api<{ items: RecordRevision[] }>(`records/${r.id}/revisions`)
      .then((h) => setHistory(h.items))
      .catch((e: Error) => onError(e.message))
  return (
    <article aria-label={`${r.kind_label} de ${brDate(r.date)}`} className="flex flex-col gap-2 rounded-xl border border-border bg-card p-4 text-sm">
      <header className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="font-semibold">
          {r.kind_label} — {brDate(r.date)}
        </h4>
        {r.revisions > 0 && <Badge variant="secondary">Corrigido</Badge>}
      </header>
      {r.kind === 'consulta' && (
        <>
          <Line label="Anamnese" value={d.anamnesis} />
          <Line label="Exame físico" value={d.physical_exam} />
          {r.vitals && Object.keys(r.vitals).length > 0 && (
            <ul className="flex flex-wrap gap-2" aria-label="Sinais vitais">
              {VITALS.map((v) => {
                const flag = r.vitals?.[v.key]
                return flag ? <Vital key={v.key} label={v.label} unit={v.unit} flag={flag} /> : null
              })}
            </ul>
          )}
          <Line label="Peso" value={d.weight_kg != null ? `${num(d.weight_kg)} kg` : undefined} />
          <Line label="Suspeitas diagnósticas" value={d.diagnoses} />
          <Line label="Conduta" value={d.plan} />
        </>
      )}
      {r.kind === 'vacina' && (
        <>
          <Line label="Vacina" value={d.vaccine} />
          <Line label="Lote" value={d.lot} />
          <Line label="Próxima dose" value={brDate(d.next_dose)} />
        </>
      )}
      {r.kind === 'prescricao' && (
        <>
          <Line label="Medicamento" value={d.drug} />
          <Line label="Forma" value={d.presentation} />
          <Line
            label="Dose"
            value={`${num(d.dose_mg_kg, 4)} mg/kg × ${num(d.weight_kg)} kg = ${num(d.dose_mg)} mg${d.volume_ml != null ? ` (${num(d.volume_ml)} mL)` : ''}`}
          />
          <Line label="Via" value={d.route} />
          <Line label="Frequência" value={d.frequency} />
          <Line label="Duração" value={d.duration} />
          <Line label="Orientações" value={d.instructions} />
        </>
      )}
      {r.kind === 'exame' && (
        <>
          <Line label="Exame" value={d.exam_name} />
          <Line label="Resultado" value={d.result} />
          {d.attachments && d.attachments.length > 0 && (
            <ul aria-label="Anexos">
              {d.attachments.map((a) => (
                <li key={a.id}>
                  <a href={fileURL(a.id)} target="_blank" rel="noopener noreferrer" className="underline">
                    {a.name ?? 'Anexo'}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {r.kind === 'peso' && <Line label="Peso" value={`${num(d.weight_kg)} kg`} />}
      {r.kind === 'nota' && <p className="whitespace-pre-wrap">{d.text}</p>}
      <div className="flex flex-wrap gap-2">
        {r.kind === 'prescricao' && (
          <Button size="sm" onClick={() => download(`records/${r.id}/pdf`, `receita-${patientName}-${r.date}.pdf`).catch((e: Error) => onError(e.message))}>
            <Printer aria-hidden="true" className="size-4" /> Imprimir receita (PDF)
          </Button>
        )}
        <Button variant="ghost" size="sm" onClick={onCorrect}>
          <Pencil aria-hidden="true" className="size-4" /> Corrigir
        </Button>
        {r.revisions > 0 && (
          <Button variant="ghost" size="sm" onClick={() => void showHistory()}>
            <History aria-hidden="true" className="size-4" /> Ver histórico
          </Button>
        )}
      </div>
      {history && (
        <ol aria-label="Versões anteriores" className="flex flex-col gap-1 border-l-2 border-border pl-3 text-muted-foreground">
          {history.map((h, i) => (
            <li key={i}>
              Antes de {new Date(h.edited_at).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' })} (corrigido por {h.edited_by}), data {brDate(h.date)}:{' '}
              {Object.entries(h.data)
                .filter(([k]) => k !== 'attachments')
                .map(([, v]) => String(v))
                .join(' · ')}
            </li>
          ))}
        </ol>
      )}
    </article>
  )
}
