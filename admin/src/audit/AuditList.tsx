import { Link as MuiLink, useMediaQuery, type Theme } from '@mui/material'
import { Datagrid, DateField, DateTimeInput, FunctionField, List, SelectInput, SimpleList, useTranslate } from 'react-admin'
import type { AuditEvent } from '../content/api'
import { ACTION_CHOICES, actionLabel, channelLabel, transitionLabel } from '../content/labels'
import { resourceName, type ContentType } from '../content/types'
import { useTeamNames } from '../content/useTeamNames'
import { formatSaoPaulo } from '../content/time'

type AuditRow = AuditEvent

/** The item an event is about, linked to its edit page. */
function ItemLink({ row, types }: { row: AuditRow; types: ContentType[] }) {
  const type = types.find((t) => t.id === row.item_type)
  return (
    <MuiLink href={`#/${resourceName(row.item_type)}/${encodeURIComponent(row.item_id)}`} onClick={(e) => e.stopPropagation()}>
      {`${type?.singular ?? row.item_type} · ${row.item_id.slice(0, 8)} · #${row.revision}`}
    </MuiLink>
  )
}

/**
 * The global audit log: every transition and backoffice write, newest first,
 * filtered by type, action and period. Read-only: the log is append-only and
 * no route changes or deletes an event.
 */
export function AuditList({ types }: { types: ContentType[] }) {
  const translate = useTranslate()
  const who = useTeamNames()
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'))
  const filters = [
    <SelectInput
      key="item_type"
      source="item_type"
      label="vetclube.audit.item_type"
      choices={types.map((t) => ({ id: t.id, name: t.plural }))}
      alwaysOn
      emptyText="Todos"
    />,
    <SelectInput key="action" source="action" label="vetclube.audit.action" choices={ACTION_CHOICES} alwaysOn emptyText="Todas" />,
    <DateTimeInput key="since" source="since" label="vetclube.audit.since" />,
    <DateTimeInput key="until" source="until" label="vetclube.audit.until" />,
  ]
  return (
    <List title={translate('vetclube.audit.title')} filters={filters} sort={{ field: 'created_at', order: 'DESC' }} perPage={25} exporter={false}>
      {phone ? (
        <SimpleList<AuditRow>
          primaryText={(r) => `${actionLabel(r.action)} · ${transitionLabel(r.from, r.to)}`}
          secondaryText={(r) => `${formatSaoPaulo(r.created_at)} · ${who(r.actor_id, r.actor_name)}`}
          linkType={false}
        />
      ) : (
        <Datagrid bulkActionButtons={false} rowClick={false}>
          <DateField source="created_at" label="vetclube.audit.when" showTime locales="pt-BR" />
          <FunctionField<AuditRow> label="vetclube.audit.action" sortable={false} render={(r) => actionLabel(r.action)} />
          <FunctionField<AuditRow> label="vetclube.audit.transition" sortable={false} render={(r) => transitionLabel(r.from, r.to)} />
          <FunctionField<AuditRow> label="vetclube.audit.item" sortable={false} render={(r) => <ItemLink row={r} types={types} />} />
          <FunctionField<AuditRow> label="vetclube.audit.actor" sortable={false} render={(r) => who(r.actor_id, r.actor_name)} />
          <FunctionField<AuditRow> label="vetclube.audit.channel" sortable={false} render={(r) => channelLabel(r.channel)} />
          <FunctionField<AuditRow> label="vetclube.audit.reason" sortable={false} render={(r) => r.reason ?? ''} />
          <FunctionField<AuditRow> label="vetclube.audit.ip" sortable={false} render={(r) => r.ip ?? ''} />
        </Datagrid>
      )}
    </List>
  )
}
