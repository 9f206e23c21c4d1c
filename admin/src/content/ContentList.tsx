import { Chip, useMediaQuery, type Theme } from '@mui/material'
import {
  CreateButton,
  Datagrid,
  DateField,
  ExportButton,
  FunctionField,
  List,
  SearchInput,
  SelectArrayInput,
  SimpleList,
  TextField,
  TopToolbar,
} from 'react-admin'
import { BulkActions } from './BulkActions'
import { STATUS_CHOICES, STATUS_COLOR } from './status'
import { formatSaoPaulo } from './time'
import type { AdminItem, ContentField, ContentType } from './types'

function listedValue(f: ContentField, item: AdminItem): string {
  const v = item.fields?.[f.name]
  if (v == null || v === '') return ''
  if (f.kind === 'select') return f.options?.find((o) => o.value === v)?.label ?? String(v)
  if (Array.isArray(v)) return v.map((x) => f.options?.find((o) => o.value === x)?.label ?? String(x)).join(', ')
  if (f.kind === 'datetime') return formatSaoPaulo(String(v))
  if (f.kind === 'boolean') return v ? 'Sim' : 'Não'
  return String(v)
}

/** Columns beyond title and status: the listed fields a table can show. */
function listedColumns(t: ContentType): ContentField[] {
  return t.fields.filter((f) => f.listed && !['image', 'file', 'video', 'long_text', 'reference', 'children'].includes(f.kind)).slice(0, 3)
}

export function StatusChip({ item }: { item: AdminItem }) {
  return (
    <Chip
      size="small"
      label={item.status_label}
      color={STATUS_COLOR[item.status] ?? 'default'}
      variant={item.published && item.status !== 'publicado' ? 'outlined' : 'filled'}
    />
  )
}

export function ContentList({ type }: { type: ContentType }) {
  // A phone gets one line per item instead of a table wider than the screen.
  const phone = useMediaQuery<Theme>((theme) => theme.breakpoints.down('sm'))
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder="Buscar" />,
    <SelectArrayInput key="status" source="status" label="vetclube.content.status" choices={STATUS_CHOICES} alwaysOn sx={{ minWidth: 220 }} />,
  ]
  return (
    <List
      title={type.plural}
      filters={filters}
      sort={{ field: 'updated_at', order: 'DESC' }}
      perPage={25}
      actions={
        <TopToolbar>
          <CreateButton />
          <ExportButton />
        </TopToolbar>
      }
    >
      {phone ? (
        <SimpleList<AdminItem>
          primaryText={(r) => r.title}
          secondaryText={(r) => <StatusChip item={r} />}
          tertiaryText={(r) => formatSaoPaulo(r.updated_at)}
          linkType="edit"
        />
      ) : (
        <Datagrid rowClick="edit" bulkActionButtons={<BulkActions type={type.id} />}>
          <TextField source="title" label="vetclube.content.title" />
          <FunctionField label="vetclube.content.status" sortBy="status" render={(r: AdminItem) => <StatusChip item={r} />} />
          {listedColumns(type).map((f) => (
            <FunctionField key={f.name} label={f.label} sortable={false} render={(r: AdminItem) => listedValue(f, r)} />
          ))}
          <FunctionField
            label="vetclube.content.next_moment"
            sortable={false}
            render={(r: AdminItem) => (r.publish_at ? formatSaoPaulo(r.publish_at) : r.unpublish_at ? formatSaoPaulo(r.unpublish_at) : '')}
          />
          <DateField source="updated_at" label="vetclube.content.updated_at" showTime locales="pt-BR" />
        </Datagrid>
      )}
    </List>
  )
}
