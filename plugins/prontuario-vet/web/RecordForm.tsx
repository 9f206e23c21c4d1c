import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { ApiError } from '@/lib/api'
import { api, num, todayISO, uploadFile, type Kind, type Meta, type Patient, type RecordData, type VetRecord } from './api'
import { Select, TextArea } from './fields'

const KINDS: { value: Kind; label: string }[] = [
  { value: 'consulta', label: 'Consulta' },
  { value: 'vacina', label: 'Vacinação' },
  { value: 'prescricao', label: 'Receita' },
  { value: 'exame', label: 'Exame' },
  { value: 'peso', label: 'Peso' },
  { value: 'nota', label: 'Anotação' },
]

type Draft = Record<string, string>

const numberFields = ['temperature_c', 'heart_rate', 'respiratory_rate', 'weight_kg', 'concentration_mg_ml', 'dose_mg_kg']

function toDraft(d: RecordData): Draft {
  const out: Draft = {}
  for (const [k, v] of Object.entries(d)) if (typeof v === 'string' || typeof v === 'number') out[k] = String(v).replace('.', numberFields.includes(k) ? ',' : '.')
  return out
}

function toData(kind: Kind, draft: Draft, attachments: RecordData['attachments']): RecordData {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(draft)) {
    if (v.trim() === '') continue
    out[k] = numberFields.includes(k) ? Number(v.replace(',', '.')) : v
  }
  if (kind === 'exame') out.attachments = attachments ?? []
  return out as RecordData
}

/** Adds a record to a patient, or corrects one (the previous text stays in its history). */
export function RecordForm({
  meta,
  patient,
  initial,
  onSaved,
  onCancel,
}: {
  meta: Meta
  patient: Patient
  initial?: VetRecord
  onSaved: (r: VetRecord) => void
  onCancel: () => void
}) {
  const [kind, setKind] = useState<Kind>(initial?.kind ?? 'consulta')
  const [date, setDate] = useState(initial?.date ?? todayISO())
  const [draft, setDraft] = useState<Draft>(() => (initial ? toDraft(initial.data) : { weight_kg: patient.latest_weight_kg ? num(patient.latest_weight_kg) : '' }))
  const [attachments, setAttachments] = useState(initial?.data.attachments ?? [])
  const [error, setError] = useState<ApiError>()
  const [busy, setBusy] = useState(false)
  const f = error?.fields ?? {}
  const field = (name: string, label: string, props: Record<string, unknown> = {}) => (
    <Input label={label} value={draft[name] ?? ''} onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))} error={f[name]} {...props} />
  )
  const area = (name: string, label: string) => (
    <TextArea label={label} value={draft[name] ?? ''} onChange={(e) => setDraft((d) => ({ ...d, [name]: e.target.value }))} error={f[name]} />
  )
  const ranges = meta.species.find((s) => s.value === patient.species)?.vitals
  const rangeHint = (k: string, unit: string) => (ranges?.[k] ? `Referência: ${num(ranges[k].Min, 1)}–${num(ranges[k].Max, 1)} ${unit}` : undefined)
  const decimal = { inputMode: 'decimal' }
  const dose = Number((draft.dose_mg_kg ?? '').replace(',', '.')) * Number((draft.weight_kg ?? '').replace(',', '.'))
  const conc = Number((draft.concentration_mg_ml ?? '').replace(',', '.'))

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      const body = { kind, date, data: toData(kind, draft, attachments) }
      const r = initial
        ? await api<VetRecord>(`records/${initial.id}`, { method: 'PUT', body: { ...body, version: initial.version } })
        : await api<VetRecord>(`patients/${patient.id}/records`, { method: 'POST', body })
      onSaved(r)
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'E', String(err)))
    } finally {
      setBusy(false)
    }
  }

  const attach = async (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      try {
        const up = await uploadFile(file)
        setAttachments((a) => [...a, { id: up.id, name: up.name, kind: up.kind }])
      } catch (err) {
        if (err instanceof ApiError) setError(err)
      }
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4 rounded-xl border border-border bg-card p-4" aria-label={initial ? 'Corrigir registro' : 'Novo registro'} noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <Select label="Tipo de registro" value={kind} onChange={(e) => setKind(e.target.value as Kind)} options={KINDS} disabled={!!initial} error={f.kind} />
        <Input label="Data" type="date" value={date} onChange={(e) => setDate(e.target.value)} error={f.date} />
      </div>
      {kind === 'consulta' && (
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="sm:col-span-2">{area('anamnesis', 'Anamnese')}</div>
          <div className="sm:col-span-2">{area('physical_exam', 'Exame físico')}</div>
          {field('temperature_c', 'Temperatura (°C)', { ...decimal, hint: rangeHint('temperature_c', '°C') })}
          {field('heart_rate', 'Frequência cardíaca (bpm)', { ...decimal, hint: rangeHint('heart_rate', 'bpm') })}
          {field('respiratory_rate', 'Frequência respiratória (mpm)', { ...decimal, hint: rangeHint('respiratory_rate', 'mpm') })}
          {field('weight_kg', 'Peso (kg)', decimal)}
          <div className="sm:col-span-2">{area('diagnoses', 'Suspeitas diagnósticas')}</div>
          <div className="sm:col-span-2">{area('plan', 'Conduta')}</div>
        </div>
      )}
      {kind === 'vacina' && (
        <div className="grid gap-4 sm:grid-cols-2">
          {field('vaccine', 'Vacina')}
          {field('lot', 'Lote')}
          {field('next_dose', 'Próxima dose', { type: 'date', hint: 'Você recebe um lembrete 7 dias antes.' })}
        </div>
      )}
      {kind === 'prescricao' && (
        <div className="grid gap-4 sm:grid-cols-2">
          <p className="text-sm text-muted-foreground sm:col-span-2">
            Medicamentos sujeitos a controle especial não são emitidos aqui: use a notificação de receita do MAPA (SIPEAGRO).
          </p>
          {field('drug', 'Medicamento')}
          {field('presentation', 'Forma farmacêutica')}
          {field('concentration_mg_ml', 'Concentração (mg/mL)', decimal)}
          {field('dose_mg_kg', 'Dose (mg/kg)', decimal)}
          {field('weight_kg', 'Peso (kg)', decimal)}
          <Select
            label="Via de administração"
            value={draft.route ?? ''}
            onChange={(e) => setDraft((d) => ({ ...d, route: e.target.value }))}
            error={f.route}
            options={[{ value: '', label: 'Selecione' }, ...meta.routes.map((r) => ({ value: r, label: r }))]}
          />
          {field('frequency', 'Frequência', { placeholder: 'A cada 12 horas' })}
          {field('duration', 'Duração', { placeholder: '7 dias' })}
          {field('quantity', 'Quantidade')}
          <div className="sm:col-span-2">{area('instructions', 'Orientações e advertências')}</div>
          {Number.isFinite(dose) && dose > 0 && (
            <p className="sm:col-span-2" aria-live="polite">
              Dose calculada: <strong>{num(dose)} mg</strong>
              {Number.isFinite(conc) && conc > 0 && (
                <>
                  {' '}
                  = <strong>{num(dose / conc)} mL</strong> por administração
                </>
              )}
            </p>
          )}
        </div>
      )}
      {kind === 'exame' && (
        <div className="grid gap-4">
          {field('exam_name', 'Exame')}
          {area('result', 'Resultado')}
          <div className="flex flex-col gap-1.5">
            <label htmlFor="pv-attach" className="text-sm font-medium">
              Anexos (PDF ou imagens)
            </label>
            <input id="pv-attach" type="file" multiple accept="application/pdf,image/jpeg,image/png,image/webp" onChange={(e) => void attach(e.target.files)} />
            {attachments.length > 0 && (
              <ul className="text-sm">
                {attachments.map((a) => (
                  <li key={a.id}>{a.name ?? a.id}</li>
                ))}
              </ul>
            )}
            {f.attachments && <p className="text-sm text-destructive">{f.attachments}</p>}
          </div>
        </div>
      )}
      {kind === 'peso' && <div className="max-w-xs">{field('weight_kg', 'Peso (kg)', decimal)}</div>}
      {kind === 'nota' && area('text', 'Anotação')}
      {error && (
        <p role="alert" className="text-destructive">
          {error.message}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" loading={busy}>
          {initial ? 'Salvar correção' : 'Salvar registro'}
        </Button>
        <Button variant="outline" onClick={onCancel}>
          Cancelar
        </Button>
      </div>
    </form>
  )
}
