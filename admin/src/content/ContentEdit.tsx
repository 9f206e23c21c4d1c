import { useMemo, type ComponentType } from 'react'
import { Alert, AlertTitle, Box, Button, Chip, Stack, Typography } from '@mui/material'
import {
  Create,
  Edit,
  SaveButton,
  SimpleForm,
  FormDataConsumer,
  TextInput,
  Toolbar,
  maxLength,
  required,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin'
import { previewLink } from './api'
import { StatusChip } from './ContentList'
import { AssetDurationInput, FieldInput, VIDEO_SOURCE_FIELD, shownForSource } from './fields'
import { ItemPanels } from './ItemPanels'
import { formatSaoPaulo } from './time'
import type { AdminItem, ContentType } from './types'
import { useEditLock, type LockState } from './useEditLock'
import { WorkflowBar } from './WorkflowBar'

function CommonInputs() {
  return (
    <>
      <TextInput source="title" label="vetclube.content.title" validate={[required(), maxLength(200)]} fullWidth />
      <TextInput source="summary" label="vetclube.content.summary" validate={maxLength(500)} multiline fullWidth />
      <TextInput source="slug" label="vetclube.content.slug" helperText="vetclube.content.slug_help" fullWidth />
    </>
  )
}

export function ContentInputs({ type }: { type: ContentType }) {
  // A type with a video source shows only the chosen source's fields, and
  // takes an uploaded video's duration from the media library.
  if (!type.fields.some((f) => f.name === VIDEO_SOURCE_FIELD)) {
    return (
      <>
        <CommonInputs />
        {type.fields.map((f) => (
          <FieldInput key={f.name} field={f} />
        ))}
      </>
    )
  }
  return (
    <>
      <CommonInputs />
      <FormDataConsumer>
        {({ formData }) => {
          const fields = (formData as { fields?: Record<string, unknown> }).fields ?? {}
          const source = typeof fields[VIDEO_SOURCE_FIELD] === 'string' ? (fields[VIDEO_SOURCE_FIELD] as string) : ''
          const asset = typeof fields.video_asset === 'string' ? fields.video_asset : ''
          return type.fields
            .filter((f) => shownForSource(f.name, source))
            .map((f) =>
              f.name === 'duration' && source === 'upload' && asset ? (
                <AssetDurationInput key={f.name} field={f} assetId={asset} />
              ) : (
                <FieldInput key={f.name} field={f} />
              ),
            )
        }}
      </FormDataConsumer>
    </>
  )
}

function LockBanner({ lock, onTakeOver }: { lock: LockState; onTakeOver: () => void }) {
  const translate = useTranslate()
  switch (lock.state) {
    case 'held':
      return (
        <Alert
          severity="warning"
          sx={{ mb: 2 }}
          action={
            <Button color="inherit" onClick={onTakeOver}>
              {translate('vetclube.content.take_over')}
            </Button>
          }
        >
          {lock.holderName
            ? translate('vetclube.content.locked_by_named', { name: lock.holderName })
            : translate('vetclube.content.locked_by_other')}
        </Alert>
      )
    case 'released':
      return (
        <Alert severity="info" sx={{ mb: 2 }}>
          {translate('vetclube.content.lock_released')}
        </Alert>
      )
    case 'lost':
      return (
        <Alert severity="error" sx={{ mb: 2 }}>
          {translate('vetclube.content.lock_lost')}
        </Alert>
      )
    case 'failed':
      return (
        <Alert severity="error" sx={{ mb: 2 }}>
          {translate('vetclube.content.lock_failed')}
        </Alert>
      )
    default:
      return null
  }
}

/** The reviewer's open request for changes, at the top of the item until it is sent again. */
function ChangeRequestBanner({ item }: { item: AdminItem }) {
  const translate = useTranslate()
  const request = item.change_request
  if (!request) return null
  return (
    <Alert severity="warning" sx={{ mb: 2 }} data-testid="change-request" role="region" aria-label={translate('vetclube.content.change_request_title', { name: request.by_name })}>
      <AlertTitle>
        {translate('vetclube.content.change_request_title', { name: request.by_name })}{' '}
        <Typography component="span" variant="body2" color="text.secondary">
          {translate('vetclube.content.change_request_when', { when: formatSaoPaulo(request.at) })}
        </Typography>
      </AlertTitle>
      <Typography sx={{ whiteSpace: 'pre-wrap' }}>{request.reason}</Typography>
    </Alert>
  )
}

/** 'Pré-visualizar': opens the item's working copy in the app through a short-lived preview link. */
export function PreviewButton({ type, item }: { type: ContentType; item: AdminItem }) {
  const translate = useTranslate()
  const notify = useNotify()
  if (!type.route) return null
  const openPreview = async () => {
    try {
      const { token } = await previewLink(type.id, item.id)
      window.open(`/pre-visualizacao/${token}`, '_blank', 'noopener')
    } catch (e) {
      notify(e instanceof Error ? e.message : 'vetclube.content.action_failed', { type: 'error' })
    }
  }
  return (
    <Button size="small" onClick={openPreview}>
      {translate('vetclube.content.preview')}
    </Button>
  )
}

/** What a plugin's edit view adds beside the item's state and preview (plugins/<type>/index.tsx). */
export type HeaderExtra = ComponentType<{ type: ContentType; item: AdminItem }>

function ItemHeader({ type, item, extra: Extra }: { type: ContentType; item: AdminItem; extra?: HeaderExtra }) {
  const translate = useTranslate()
  return (
    <Stack direction="row" spacing={1} sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
      <StatusChip item={item} />
      {item.published && <Chip size="small" variant="outlined" color="success" label={translate('vetclube.content.live')} />}
      {item.has_draft && <Chip size="small" variant="outlined" label={translate('vetclube.content.has_draft')} />}
      {item.publish_at && (
        <Typography variant="body2" data-testid="next-publish">
          {translate('vetclube.content.publishes_at', { when: formatSaoPaulo(item.publish_at) })}
        </Typography>
      )}
      {item.unpublish_at && (
        <Typography variant="body2">{translate('vetclube.content.unpublishes_at', { when: formatSaoPaulo(item.unpublish_at) })}</Typography>
      )}
      <PreviewButton type={type} item={item} />
      {Extra && <Extra type={type} item={item} />}
    </Stack>
  )
}

function EditBody({ type, extra }: { type: ContentType; extra?: HeaderExtra }) {
  const item = useRecordContext<AdminItem>()
  const { lock, takeOver, released } = useEditLock(type.id, item?.id as string | undefined)
  if (!item) return null
  const canSave = lock.state === 'mine'
  return (
    <Box sx={{ p: 2 }}>
      <ItemHeader type={type} item={item} extra={extra} />
      <ChangeRequestBanner item={item} />
      <LockBanner lock={lock} onTakeOver={takeOver} />
      {/* Workflow moves need no edit lock: the server checks the version they were made on.
          Sending for review frees the lock on the server: this tab stops holding it. */}
      <WorkflowBar
        type={type.id}
        item={item}
        disabled={lock.state === 'lost'}
        onDone={(action) => action === 'submit' && released()}
      />
      <SimpleForm
        sx={{ p: 0 }}
        disabled={!canSave}
        toolbar={
          <Toolbar>
            <SaveButton disabled={!canSave} />
          </Toolbar>
        }
      >
        <ContentInputs type={type} />
      </SimpleForm>
      <ItemPanels type={type.id} item={item} />
    </Box>
  )
}

export function ContentEdit({ type, extra }: { type: ContentType; extra?: HeaderExtra }) {
  return (
    <Edit mutationMode="pessimistic" title={type.singular} redirect={false}>
      <EditBody type={type} extra={extra} />
    </Edit>
  )
}

export function ContentCreate({ type }: { type: ContentType }) {
  // One key per opened form: a retried or double-clicked save creates once.
  const idempotencyKey = useMemo(() => crypto.randomUUID(), [])
  return (
    <Create title={type.singular} redirect="edit" mutationOptions={{ meta: { idempotencyKey } }}>
      <SimpleForm>
        <ContentInputs type={type} />
      </SimpleForm>
    </Create>
  )
}
