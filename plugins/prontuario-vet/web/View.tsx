import { useState } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useSearchParams } from 'react-router'
import { Download, Plus, Search } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Spinner } from '@/components/ui/Spinner'
import type { ToolViewProps } from '@/features/ferramentas'
import { api, brDate, download, type Meta, type Page, type Patient, type UpcomingVaccine } from './api'
import { Select } from './fields'
import { PatientForm } from './PatientForm'
import { PatientPage } from './PatientPage'

export const metaKey = ['tools', 'prontuario-vet', 'meta'] as const

/**
 * Prontuário Vet: the vet's patients (search, species filter, archive),
 * upcoming vaccines, and each patient's page with its records. The
 * sub-page lives in the address (?paciente=<id>, ?novo=1) so the browser's
 * back button and shared links work.
 */
export default function ProntuarioView(_: ToolViewProps) {
  const [params, setParams] = useSearchParams()
  const meta = useQuery({ queryKey: metaKey, queryFn: () => api<Meta>('meta'), staleTime: 0 })
  const qc = useQueryClient()
  const patientId = params.get('paciente')
  const go = (next: Record<string, string>) => setParams(next)

  if (meta.isPending) return <Spinner />
  if (meta.error) return <p role="alert">{meta.error.message}</p>
  if (params.get('novo') === '1') {
    return (
      <PatientForm
        meta={meta.data}
        onCancel={() => go({})}
        onSaved={(p) => {
          void qc.invalidateQueries({ queryKey: ['tools', 'prontuario-vet'] })
          go({ paciente: p.id })
        }}
      />
    )
  }
  if (patientId) return <PatientPage meta={meta.data} id={patientId} onBack={() => go({})} />
  return <PatientList meta={meta.data} onOpen={(id) => go({ paciente: id })} onNew={() => go({ novo: '1' })} />
}

function PatientList({ meta, onOpen, onNew }: { meta: Meta; onOpen: (id: string) => void; onNew: () => void }) {
  const [q, setQ] = useState('')
  const [species, setSpecies] = useState('')
  const [archived, setArchived] = useState(false)
  const [page, setPage] = useState(1)
  const [exportError, setExportError] = useState<string>()
  const query = new URLSearchParams({ q, species, page: String(page), per_page: '20', ...(archived ? { archived: '1' } : {}) })
  const list = useQuery({
    queryKey: ['tools', 'prontuario-vet', 'patients', query.toString()],
    queryFn: () => api<Page<Patient>>(`patients?${query}`),
    placeholderData: (prev) => prev,
  })
  const upcoming = useQuery({
    queryKey: ['tools', 'prontuario-vet', 'upcoming'],
    queryFn: () => api<{ items: UpcomingVaccine[] }>('vaccines/upcoming?days=60'),
  })
  const pages = list.data ? Math.max(1, Math.ceil(list.data.total / list.data.per_page)) : 1
  const exportAll = (format: 'json' | 'csv') => download(`export?format=${format}`, `prontuario-vet.${format}`).catch((e: Error) => setExportError(e.message))

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={onNew}>
          <Plus aria-hidden="true" className="size-4" /> Novo paciente
        </Button>
        <Button variant="outline" onClick={() => void exportAll('json')}>
          <Download aria-hidden="true" className="size-4" /> Exportar JSON
        </Button>
        <Button variant="outline" onClick={() => void exportAll('csv')}>
          <Download aria-hidden="true" className="size-4" /> Exportar CSV
        </Button>
        {meta.limit >= 0 && (
          <span className="text-sm text-muted-foreground">
            {meta.active_patients} de {meta.limit} pacientes ativos no período de teste
          </span>
        )}
      </div>
      {exportError && <p role="alert">{exportError}</p>}
      <section aria-labelledby="pv-upcoming" className="flex flex-col gap-2">
        <h2 id="pv-upcoming" className="text-lg font-semibold">
          Próximas vacinas
        </h2>
        {upcoming.data?.items.length === 0 && <p className="text-sm text-muted-foreground">Nenhuma vacina nos próximos 60 dias.</p>}
        <ul className="flex flex-col gap-1" aria-label="Próximas vacinas">
          {upcoming.data?.items.map((v) => (
            <li key={v.record_id}>
              <button type="button" className="text-left underline-offset-2 hover:underline" onClick={() => onOpen(v.patient_id)}>
                <strong>{brDate(v.next_dose)}</strong> — {v.vaccine} de {v.patient_name}
                {v.tutor_name && <span className="text-muted-foreground"> (tutor: {v.tutor_name})</span>}
              </button>
            </li>
          ))}
        </ul>
      </section>
      <section aria-labelledby="pv-patients" className="flex flex-col gap-3">
        <h2 id="pv-patients" className="text-lg font-semibold">
          {archived ? 'Pacientes arquivados' : 'Pacientes'}
        </h2>
        <div className="grid gap-3 sm:grid-cols-[1fr_12rem_auto] sm:items-end">
          <Input
            label="Buscar por paciente, tutor ou microchip"
            type="search"
            value={q}
            onChange={(e) => {
              setQ(e.target.value)
              setPage(1)
            }}
          />
          <Select
            label="Espécie"
            value={species}
            onChange={(e) => {
              setSpecies(e.target.value)
              setPage(1)
            }}
            options={[{ value: '', label: 'Todas' }, ...meta.species.map((s) => ({ value: s.value, label: s.label }))]}
          />
          <Button
            variant="ghost"
            onClick={() => {
              setArchived(!archived)
              setPage(1)
            }}
          >
            {archived ? 'Ver ativos' : 'Ver arquivados'}
          </Button>
        </div>
        {list.isPending && <Spinner />}
        {list.error && <p role="alert">{list.error.message}</p>}
        {list.data?.total === 0 && (
          <p className="text-muted-foreground">
            <Search aria-hidden="true" className="mr-1 inline size-4" />
            Nenhum paciente encontrado.
          </p>
        )}
        <ul className="grid gap-2 md:grid-cols-2" aria-label="Lista de pacientes">
          {list.data?.items.map((p) => (
            <li key={p.id}>
              <Card className="h-full">
                <button type="button" onClick={() => onOpen(p.id)} className="h-full w-full rounded-xl text-left hover:bg-muted">
                  <CardHeader>
                    <CardTitle className="flex flex-wrap items-center gap-2 text-base">
                      {p.name} <Badge variant="outline">{p.species_label}</Badge>
                    </CardTitle>
                  </CardHeader>
                  <CardContent className="text-sm text-muted-foreground">
                    {[p.data.breed, p.data.tutor.name && `Tutor: ${p.data.tutor.name}`, p.data.microchip && `Microchip ${p.data.microchip}`].filter(Boolean).join(' · ')}
                  </CardContent>
                </button>
              </Card>
            </li>
          ))}
        </ul>
        {pages > 1 && (
          <nav aria-label="Páginas" className="flex items-center gap-2">
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
