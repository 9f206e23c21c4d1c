import { Datagrid, DateField, FunctionField, List, SelectInput, TextField } from 'react-admin'

const kinds = [
  { id: 'export', name: 'Exportação' },
  { id: 'deletion', name: 'Exclusão' },
]

const statuses = [
  { id: 'pendente', name: 'Na fila' },
  { id: 'processando', name: 'Processando' },
  { id: 'pronto', name: 'Pronto' },
  { id: 'expirado', name: 'Expirado' },
  { id: 'erro', name: 'Erro' },
  { id: 'agendada', name: 'Agendada' },
  { id: 'concluida', name: 'Concluída' },
  { id: 'cancelada', name: 'Cancelada' },
]

const filters = [
  <SelectInput key="kind" source="kind" label="Tipo" choices={kinds} alwaysOn />,
  <SelectInput key="status" source="status" label="Estado" choices={statuses} alwaysOn />,
]

interface Step {
  step: string
  count: number
}

/** LGPD requests (super admins): exports and account deletions, their state and the deletion report. */
export function LgpdRequestList() {
  return (
    <List filters={filters} sort={{ field: 'requested_at', order: 'DESC' }} title="Dados dos membros (LGPD)">
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <FunctionField label="Tipo" render={(r: { kind: string }) => (r.kind === 'export' ? 'Exportação' : 'Exclusão')} />
        <FunctionField label="Estado" sortBy="status" render={(r: { status: string }) => statuses.find((s) => s.id === r.status)?.name ?? r.status} />
        <DateField source="requested_at" label="Pedido em" showTime />
        <DateField source="scheduled_for" label="Exclusão em" showTime emptyText="—" />
        <DateField source="finished_at" label="Concluído em" showTime emptyText="—" />
        <FunctionField label="Conta" render={(r: { user_id: string }) => r.user_id || 'excluída'} />
        <TextField source="detail" label="Detalhe" emptyText="—" />
        <FunctionField
          label="Relatório"
          render={(r: { report?: Step[] }) => (r.report && r.report.length > 0 ? r.report.map((s) => `${s.step}: ${s.count}`).join(', ') : '—')}
        />
      </Datagrid>
    </List>
  )
}
