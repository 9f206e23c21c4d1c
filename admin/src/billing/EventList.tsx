import { useState } from 'react'
import { Button, Chip, Typography } from '@mui/material'
import { useMutation } from '@tanstack/react-query'
import { Confirm, Datagrid, DateField, FunctionField, List, NumberField, SelectInput, SimpleList, TextField, TextInput, useNotify, usePermissions, useRecordContext, useRefresh } from 'react-admin'
import { useMediaQuery, type Theme } from '@mui/material'
import { reprocessEvent } from './api'
import { EVENT_STATUS_COLOUR, EVENT_STATUS_LABEL, eventStatusChoices, lag, type AdminEvent } from './types'

const filters = [
  <SelectInput key="status" source="status" label="Situação" choices={eventStatusChoices} alwaysOn emptyText="Todas" />,
  <TextInput key="type" source="type" label="Tipo" alwaysOn placeholder="invoice.paid" />,
]

export function EventStatusChip(_props: { label?: string }) {
  const row = useRecordContext<AdminEvent>()
  if (!row) return null
  return <Chip size="small" color={EVENT_STATUS_COLOUR[row.status] ?? 'default'} label={EVENT_STATUS_LABEL[row.status] ?? row.status} />
}

/** 'Reprocessar': the stored event through the handler again (super admins; the inbox keeps it idempotent). */
export function ReprocessButton(_props: { label?: string }) {
  const row = useRecordContext<AdminEvent>()
  const { permissions } = usePermissions<string[]>()
  const notify = useNotify()
  const refresh = useRefresh()
  const [asked, setAsked] = useState(false)
  const { mutate, isPending } = useMutation({
    mutationFn: (id: string) => reprocessEvent(id),
    onSuccess: (out) => {
      notify(`Evento reprocessado: ${EVENT_STATUS_LABEL[out.status as AdminEvent['status']] ?? out.status}.`, { type: 'success' })
      refresh()
    },
    onError: (error: Error) => notify(error.message, { type: 'error' }),
    onSettled: () => setAsked(false),
  })
  if (!row || !permissions?.includes('super_admin')) return null
  return (
    <span onClick={(e) => e.stopPropagation()}>
      <Button size="small" variant="outlined" disabled={isPending} onClick={() => setAsked(true)} aria-label={`Reprocessar ${row.id}`}>
        Reprocessar
      </Button>
      <Confirm
        isOpen={asked}
        loading={isPending}
        title="Reprocessar este evento?"
        content={`O evento ${row.type} (${row.id}) passa de novo pelo tratamento. Um evento já aplicado não muda nada.`}
        confirm="Reprocessar"
        onConfirm={() => mutate(row.id)}
        onClose={() => setAsked(false)}
      />
    </span>
  )
}

function ErrorText(_props: { label?: string }) {
  const row = useRecordContext<AdminEvent>()
  if (!row?.error) return null
  return (
    <Typography variant="body2" color="error" sx={{ maxWidth: 320, overflowWrap: 'anywhere' }}>
      {row.error}
    </Typography>
  )
}

/** Eventos do Stripe: every webhook received, its status, attempts and lag. */
export default function EventList() {
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'))
  return (
    <List resource="billing/events" title="Eventos do Stripe" filters={filters} sort={{ field: 'received_at', order: 'DESC' }} perPage={50} exporter={false}>
      {phone ? (
        <SimpleList<AdminEvent> primaryText={(e) => e.type} secondaryText={(e) => `${EVENT_STATUS_LABEL[e.status] ?? e.status} · ${lag(e.lag_ms)}`} linkType={false} />
      ) : (
        <Datagrid bulkActionButtons={false} rowClick={false}>
          <DateField source="received_at" label="Recebido em" locales="pt-BR" showTime />
          <TextField source="type" label="Tipo" />
          <EventStatusChip label="Situação" />
          <NumberField source="attempts" label="Tentativas" />
          <FunctionField<AdminEvent> source="lag_ms" label="Atraso" render={(e) => lag(e.lag_ms)} />
          <TextField source="id" label="Id" sortable={false} />
          <ErrorText label="Erro" />
          <ReprocessButton label="Ações" />
        </Datagrid>
      )}
    </List>
  )
}
