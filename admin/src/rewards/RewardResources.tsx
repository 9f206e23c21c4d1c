import { useState, type ChangeEvent } from 'react'
import { Alert, Box, Button, Stack, TextField as MuiTextField, Typography } from '@mui/material'
import { useMutation } from '@tanstack/react-query'
import {
  BooleanField,
  BooleanInput,
  Confirm,
  Create,
  Datagrid,
  DateField,
  Edit,
  EditButton,
  FormDataConsumer,
  FunctionField,
  List,
  NumberField,
  NumberInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  maxLength,
  maxValue,
  minValue,
  required,
  useNotify,
  useRecordContext,
  useRefresh,
} from 'react-admin'
import { FRAME_CHOICES, KIND_CHOICES, KIND_TEXT, STATUS_CHOICES, refundRedemption, uploadVouchers } from './data'

interface RewardRow {
  id: string
  title: string
  kind: string
  cost: number
  stock: number | null
  vouchers_free: number
  vouchers_total: number
}

interface RedemptionRow {
  id: string
  status: 'pending' | 'delivered' | 'refunded'
  title: string
  email: string
}

const STATUS_TEXT: Record<string, string> = { delivered: 'Entregue', pending: 'Em entrega', refunded: 'Estornado' }

/** Backoffice Recompensas: the catalogue with stock and vouchers left. */
export function RewardList() {
  return (
    <List title="Recompensas" sort={{ field: 'position', order: 'ASC' }} exporter={false}>
      <Datagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="title" label="Título" />
        <FunctionField label="Tipo" render={(r: RewardRow) => KIND_TEXT[r.kind] ?? r.kind} />
        <NumberField source="cost" label="Custo (VetCoins)" />
        <FunctionField label="Estoque" render={(r: RewardRow) => (r.stock === null ? 'Ilimitado' : String(r.stock))} />
        <NumberField source="per_member_limit" label="Limite por membro" emptyText="—" />
        <BooleanField source="premium_only" label="Só Premium" />
        <BooleanField source="active" label="Ativa" />
        <NumberField source="redemptions" label="Resgates" />
        <EditButton />
      </Datagrid>
    </List>
  )
}

function RewardFields({ creating }: { creating: boolean }) {
  return (
    <>
      <TextInput source="title" label="Título" validate={[required(), maxLength(120)]} fullWidth />
      <TextInput source="description" label="Descrição" multiline fullWidth validate={maxLength(2000)} />
      <TextInput source="image_url" label="Imagem (endereço da biblioteca de mídia ou https://)" fullWidth validate={maxLength(500)} />
      <SelectInput source="kind" label="Tipo" choices={KIND_CHOICES} validate={required()} disabled={!creating} />
      <NumberInput source="cost" label="Custo em VetCoins" validate={[required(), minValue(1), maxValue(1_000_000)]} />
      <FormDataConsumer>
        {({ formData }) =>
          formData.kind === 'voucher' ? (
            <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
              O estoque de um voucher é o número de códigos ainda não entregues: carregue-os em CSV depois de salvar.
            </Typography>
          ) : (
            <NumberInput source="stock" label="Estoque (vazio = ilimitado)" validate={minValue(0)} />
          )
        }
      </FormDataConsumer>
      <NumberInput source="per_member_limit" label="Limite por membro (vazio = sem limite)" validate={minValue(1)} />
      <BooleanInput source="premium_only" label="Exclusiva Premium" />
      <BooleanInput source="active" label="Ativa na loja" defaultValue />
      <TextInput source="instructions" label="Como usar (o membro vê com o código)" multiline fullWidth validate={maxLength(2000)} />
      <NumberInput source="position" label="Posição na loja" defaultValue={0} validate={minValue(0)} />
      <FormDataConsumer>
        {({ formData }) => (
          <>
            {formData.kind === 'coupon' && (
              <Stack direction="row" spacing={2}>
                <NumberInput source="config.percent_off" label="Desconto (%)" validate={[required(), minValue(1), maxValue(100)]} />
                <NumberInput source="config.duration_months" label="Meses (0 = uma fatura)" defaultValue={0} validate={[minValue(0), maxValue(36)]} />
              </Stack>
            )}
            {formData.kind === 'course' && <TextInput source="config.course_id" label="Curso (identificador de um curso publicado)" validate={required()} fullWidth />}
            {formData.kind === 'certificate_frame' && <SelectInput source="config.frame" label="Moldura" choices={FRAME_CHOICES} validate={required()} />}
          </>
        )}
      </FormDataConsumer>
    </>
  )
}

const orNull = (v: unknown) => (v === '' || v === undefined || v === null ? null : v)

// Only the input's fields go out (the API refuses unknown ones); empty
// numbers are null (unlimited), not 0.
const transform = (d: Record<string, any>) => ({
  title: d.title,
  description: d.description ?? '',
  image_url: d.image_url ?? '',
  kind: d.kind,
  cost: d.cost,
  stock: orNull(d.stock),
  per_member_limit: orNull(d.per_member_limit),
  premium_only: Boolean(d.premium_only),
  active: d.active ?? true,
  instructions: d.instructions ?? '',
  position: d.position ?? 0,
  config: {
    percent_off: d.config?.percent_off ?? undefined,
    duration_months: d.config?.duration_months ?? undefined,
    course_id: d.config?.course_id || undefined,
    frame: d.config?.frame || undefined,
  },
})

export function RewardCreate() {
  return (
    <Create title="Nova recompensa" redirect="edit" transform={transform}>
      <SimpleForm>
        <RewardFields creating />
      </SimpleForm>
    </Create>
  )
}

/** CSV upload of partner codes, for a voucher reward. */
function VoucherUploadPanel() {
  const r = useRecordContext<RewardRow>()
  const notify = useNotify()
  const refresh = useRefresh()
  const [error, setError] = useState<string | null>(null)
  const { mutate, isPending } = useMutation({
    mutationFn: (csv: string) => uploadVouchers(r!.id, csv),
    onSuccess: (out) => {
      setError(null)
      notify(`${out.added} código(s) carregado(s).`, { type: 'success' })
      refresh()
    },
    onError: (e: Error) => setError(e.message),
  })
  if (!r || r.kind !== 'voucher') return null
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    e.target.value = ''
    if (!file) return
    if (file.size > 1 << 20) {
      setError('O arquivo CSV pode ter até 1 MB.')
      return
    }
    mutate(await file.text())
  }
  return (
    <Box sx={{ p: 2 }} component="section" aria-label="Códigos do voucher">
      <Typography variant="h6" component="h2">
        Códigos do voucher
      </Typography>
      <Typography variant="body2" sx={{ mb: 1 }}>
        {r.vouchers_free} disponível(is) de {r.vouchers_total} carregado(s). CSV com um código por linha (cabeçalho opcional “codigo”); um arquivo com
        códigos repetidos ou já carregados é recusado inteiro.
      </Typography>
      <Button variant="outlined" component="label" disabled={isPending}>
        Carregar CSV de códigos
        <input hidden type="file" accept=".csv,text/csv,text/plain" aria-label="Arquivo CSV de códigos" onChange={(e) => void onFile(e)} />
      </Button>
      {error && (
        <Alert severity="error" sx={{ mt: 2 }} role="alert">
          {error}
        </Alert>
      )}
    </Box>
  )
}

export function RewardEdit() {
  return (
    <Edit title="Editar recompensa" mutationMode="pessimistic" transform={transform} aside={<VoucherUploadPanel />}>
      <SimpleForm>
        <RewardFields creating={false} />
      </SimpleForm>
    </Edit>
  )
}

function RefundButton() {
  const r = useRecordContext<RedemptionRow>()
  const notify = useNotify()
  const refresh = useRefresh()
  const [open, setOpen] = useState(false)
  const [reason, setReason] = useState('')
  const { mutate, isPending } = useMutation({
    mutationFn: () => refundRedemption(r!.id, reason),
    onSuccess: () => {
      notify('Resgate estornado: VetCoins devolvidos e estoque restaurado.', { type: 'success' })
      setOpen(false)
      setReason('')
      refresh()
    },
    onError: (e: Error) => notify(e.message, { type: 'error' }),
  })
  if (!r || r.status === 'refunded') return null
  return (
    <Box onClick={(e) => e.stopPropagation()}>
      <Button size="small" color="error" variant="outlined" onClick={() => setOpen(true)}>
        Estornar
      </Button>
      <Confirm
        isOpen={open}
        loading={isPending}
        title="Estornar este resgate?"
        content={
          <Box>
            <Typography sx={{ mb: 2 }}>
              {r.email}: “{r.title}”. Os VetCoins voltam ao membro e o estoque é restaurado. O motivo fica na auditoria.
            </Typography>
            <MuiTextField label="Motivo (obrigatório)" value={reason} onChange={(e) => setReason(e.target.value)} fullWidth multiline />
          </Box>
        }
        confirm="Estornar"
        cancel="Cancelar"
        onConfirm={() => mutate()}
        onClose={() => setOpen(false)}
      />
    </Box>
  )
}

const redemptionFilters = [
  <SelectInput key="status" source="status" label="Situação" choices={STATUS_CHOICES} alwaysOn />,
  <TextInput key="q" source="q" label="Buscar (e-mail ou recompensa)" alwaysOn />,
]

/** Every redemption, newest first, with the member, the code and a staff refund. */
export function RedemptionList() {
  return (
    <List title="Resgates de recompensas" filters={redemptionFilters} sort={{ field: 'created_at', order: 'DESC' }} exporter={false}>
      <Datagrid bulkActionButtons={false} rowClick={false}>
        <DateField source="created_at" label="Em" showTime />
        <TextField source="email" label="Membro" />
        <TextField source="title" label="Recompensa" />
        <NumberField source="cost" label="VetCoins" />
        <FunctionField label="Situação" render={(r: RedemptionRow) => STATUS_TEXT[r.status] ?? r.status} />
        <TextField source="code" label="Código" emptyText="—" />
        <TextField source="refund_reason" label="Motivo do estorno" emptyText="—" />
        <RefundButton />
      </Datagrid>
    </List>
  )
}
