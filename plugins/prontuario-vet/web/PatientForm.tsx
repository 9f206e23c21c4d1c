import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { ApiError } from '@/lib/api'
import { api, todayISO, uploadFile, type Meta, type Patient, type PatientData } from './api'
import { Checkbox, Select, TextArea } from './fields'

const emptyData = (): PatientData => ({
  breed: '',
  sex: 'indefinido',
  neutered: false,
  birth_date: '',
  approx_age: '',
  microchip: '',
  coat: '',
  tutor: { name: '', phone: '', email: '', cpf: '', address: '' },
  allergies: '',
  chronic_conditions: '',
  photo_file_id: '',
})

/** Creates or edits a patient; a 403 from the trial limit shows its reason and the Premium invitation. */
export function PatientForm({ meta, initial, onSaved, onCancel }: { meta: Meta; initial?: Patient; onSaved: (p: Patient) => void; onCancel: () => void }) {
  const [name, setName] = useState(initial?.name ?? '')
  const [species, setSpecies] = useState(initial?.species ?? 'cao')
  const [data, setData] = useState<PatientData>(() => ({ ...emptyData(), ...initial?.data, tutor: { ...emptyData().tutor, ...initial?.data.tutor } }))
  const [weight, setWeight] = useState('')
  const [error, setError] = useState<ApiError>()
  const [busy, setBusy] = useState(false)
  const [uploading, setUploading] = useState(false)
  const set = <K extends keyof PatientData>(k: K, v: PatientData[K]) => setData((d) => ({ ...d, [k]: v }))
  const setTutor = (k: keyof PatientData['tutor'], v: string) => setData((d) => ({ ...d, tutor: { ...d.tutor, [k]: v } }))
  const f = error?.fields ?? {}

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      const body: Record<string, unknown> = { name, species, ...data }
      if (!initial && weight.trim() !== '') {
        body.weight_kg = Number(weight.replace(',', '.'))
        body.weight_date = todayISO()
      }
      const p = initial
        ? await api<Patient>(`patients/${initial.id}`, { method: 'PUT', body: { ...body, version: initial.version } })
        : await api<Patient>('patients', { method: 'POST', body })
      onSaved(p)
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'E', String(err)))
    } finally {
      setBusy(false)
    }
  }

  const photo = async (file: File | undefined) => {
    if (!file) return
    setUploading(true)
    try {
      const up = await uploadFile(file)
      set('photo_file_id', up.id)
    } catch (err) {
      setError(err instanceof ApiError ? err : undefined)
    } finally {
      setUploading(false)
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>{initial ? `Editar ${initial.name}` : 'Novo paciente'}</CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-4" aria-label={initial ? 'Editar paciente' : 'Novo paciente'} noValidate>
          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 font-semibold">Animal</legend>
            <Input label="Nome do paciente" value={name} onChange={(e) => setName(e.target.value)} error={f.name} required maxLength={80} />
            <Select label="Espécie" value={species} onChange={(e) => setSpecies(e.target.value)} error={f.species} options={meta.species.map((s) => ({ value: s.value, label: s.label }))} />
            <Input label="Raça" value={data.breed} onChange={(e) => set('breed', e.target.value)} error={f.breed} />
            <Select
              label="Sexo"
              value={data.sex}
              onChange={(e) => set('sex', e.target.value as PatientData['sex'])}
              error={f.sex}
              options={[
                { value: 'indefinido', label: 'Não informado' },
                { value: 'macho', label: 'Macho' },
                { value: 'femea', label: 'Fêmea' },
              ]}
            />
            <Input label="Data de nascimento" type="date" value={data.birth_date} onChange={(e) => set('birth_date', e.target.value)} error={f.birth_date} />
            <Input label="Idade aproximada" hint="Se não souber a data: ex. 3 anos" value={data.approx_age} onChange={(e) => set('approx_age', e.target.value)} error={f.approx_age} />
            <Input label="Microchip" inputMode="numeric" value={data.microchip} onChange={(e) => set('microchip', e.target.value)} error={f.microchip} />
            <Input label="Pelagem" value={data.coat} onChange={(e) => set('coat', e.target.value)} error={f.coat} />
            {!initial && <Input label="Peso atual (kg)" inputMode="decimal" value={weight} onChange={(e) => setWeight(e.target.value)} error={f.weight_kg} />}
            <Checkbox label="Castrado(a)" checked={data.neutered} onChange={(v) => set('neutered', v)} />
            <div className="flex flex-col gap-1.5 sm:col-span-2">
              <label className="text-sm font-medium" htmlFor="pv-photo">
                Foto {data.photo_file_id && '(enviada)'}
              </label>
              <input id="pv-photo" type="file" accept="image/jpeg,image/png,image/webp" onChange={(e) => void photo(e.target.files?.[0])} disabled={uploading} />
              {f.photo_file_id && <p className="text-sm text-destructive">{f.photo_file_id}</p>}
            </div>
            <TextArea label="Alergias" value={data.allergies} onChange={(e) => set('allergies', e.target.value)} error={f.allergies} />
            <TextArea label="Condições crônicas" value={data.chronic_conditions} onChange={(e) => set('chronic_conditions', e.target.value)} error={f.chronic_conditions} />
          </fieldset>
          <fieldset className="grid gap-4 sm:grid-cols-2">
            <legend className="mb-2 font-semibold">Tutor</legend>
            <Input label="Nome do tutor" value={data.tutor.name} onChange={(e) => setTutor('name', e.target.value)} error={f['tutor.name']} />
            <Input label="Telefone do tutor" type="tel" value={data.tutor.phone} onChange={(e) => setTutor('phone', e.target.value)} error={f['tutor.phone']} />
            <Input label="E-mail do tutor" type="email" value={data.tutor.email} onChange={(e) => setTutor('email', e.target.value)} error={f['tutor.email']} />
            <Input label="CPF do tutor (opcional)" inputMode="numeric" value={data.tutor.cpf} onChange={(e) => setTutor('cpf', e.target.value)} error={f['tutor.cpf']} />
            <div className="sm:col-span-2">
              <Input label="Endereço do tutor" value={data.tutor.address} onChange={(e) => setTutor('address', e.target.value)} error={f['tutor.address']} />
            </div>
          </fieldset>
          {error && (
            <div role="alert" className="flex flex-col gap-2 rounded-lg border border-destructive p-3">
              <p className="text-destructive">{error.message}</p>
              {error.status === 403 && (
                <Link to="/pricing" className={buttonClasses('primary', 'sm', 'self-start')}>
                  Conhecer o Premium
                </Link>
              )}
            </div>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" loading={busy} disabled={uploading}>
              {initial ? 'Salvar alterações' : 'Cadastrar paciente'}
            </Button>
            <Button variant="outline" onClick={onCancel}>
              Cancelar
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  )
}
