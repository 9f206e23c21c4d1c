import { Chip, useMediaQuery, type Theme } from '@mui/material'
import {
  BooleanField,
  Datagrid,
  DateField,
  FunctionField,
  List,
  SearchInput,
  SelectInput,
  SimpleList,
  TextField,
  useRecordContext,
} from 'react-admin'
import { MetricsCard } from './MetricsCard'
import { SubscriptionTimeline } from './Timeline'
import { PLAN_LABEL, planChoices, statusChoices, SUBSCRIPTION_STATUS_COLOUR, SUBSCRIPTION_STATUS_LABEL, type AdminSubscription } from './types'

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Buscar por nome ou email" />,
  <SelectInput key="status" source="status" label="Situação" choices={statusChoices} alwaysOn emptyText="Todas" />,
  <SelectInput key="plan" source="plan" label="Plano" choices={planChoices} alwaysOn emptyText="Todos" />,
]

export function SubscriptionStatusChip(_props: { label?: string }) {
  const row = useRecordContext<AdminSubscription>()
  if (!row) return null
  return (
    <Chip
      size="small"
      color={row.payment_failed ? 'warning' : (SUBSCRIPTION_STATUS_COLOUR[row.status] ?? 'default')}
      label={row.payment_failed && row.status === 'active' ? 'Pagamento falhou' : (SUBSCRIPTION_STATUS_LABEL[row.status] ?? row.status)}
    />
  )
}

const planOf = (r: AdminSubscription) => (r.plan ? PLAN_LABEL[r.plan] : '—')

/**
 * Assinaturas: members by status and plan, MRR and churn of the last 12
 * months above, and each member's timeline (Stripe events and entitlement
 * changes) when a row is opened.
 */
export default function SubscriptionList() {
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'))
  return (
    <>
      <MetricsCard />
      <List resource="billing/subscriptions" title="Assinaturas" filters={filters} sort={{ field: 'current_period_end', order: 'DESC' }} perPage={25} exporter={false}>
        {phone ? (
          <SimpleList<AdminSubscription> primaryText={(r) => r.email} secondaryText={(r) => `${SUBSCRIPTION_STATUS_LABEL[r.status] ?? r.status} · ${planOf(r)}`} linkType={false} />
        ) : (
          <Datagrid bulkActionButtons={false} rowClick="expand" expand={<SubscriptionTimeline />}>
            <TextField source="email" label="Email" />
            <TextField source="name" label="Nome" sortable={false} />
            <SubscriptionStatusChip label="Situação" />
            <FunctionField<AdminSubscription> source="plan" label="Plano" render={planOf} />
            <DateField source="current_period_end" label="Fim do período" locales="pt-BR" />
            <BooleanField source="cancel_at_period_end" label="Cancela no fim do período" sortable={false} />
          </Datagrid>
        )}
      </List>
    </>
  )
}
