import { useEffect, useState, type ChangeEvent } from 'react'
import { Box, Button as MuiButton, FormHelperText, TextField, Typography } from '@mui/material'
import {
  AutocompleteArrayInput,
  AutocompleteInput,
  BooleanInput,
  DateInput,
  NumberInput,
  ReferenceArrayInput,
  ReferenceInput,
  SelectArrayInput,
  SelectInput,
  TextInput,
  maxLength,
  maxValue,
  minLength,
  minValue,
  regex,
  required,
  useGetOne,
  useInput,
  useTranslate,
  type Validator,
} from 'react-admin'
import { getAsset } from '../media/api'
import { ImagePicker } from '../media/ImagePicker'
import { MediaInput } from '../media/MediaInput'
import { formatDuration } from '../media/format'
import type { MediaAsset } from '../media/types'
import { upload } from './api'
import { saoPauloToUTC, utcToSaoPaulo } from './time'
import { resourceName, type ContentField } from './types'

/**
 * A material kept in the media library (media/<asset id>/original.<ext>) is not public: it
 * opens at the signed, short-lived address the library gives staff. Other values keep their
 * /uploads/ link.
 */
async function openLibraryFile(e: React.MouseEvent<HTMLAnchorElement>, key: string) {
  const id = /^media\/([0-9a-f-]{36})\/original\.[a-z]+$/.exec(key)?.[1]
  if (!id) return
  e.preventDefault()
  const tab = window.open('', '_blank')
  try {
    const asset = await getAsset(id)
    if (tab && asset.url) tab.location.href = asset.url
    else tab?.close()
  } catch {
    tab?.close()
  }
}

/** The client-side checks a field's declaration implies; the server checks them again. */
export function validatorsFor(f: ContentField): Validator[] {
  const out: Validator[] = []
  if (f.required) out.push(required())
  const counted = ['text', 'long_text', 'url'].includes(f.kind)
  const numeric = f.kind === 'number'
  if (f.min != null) {
    if (counted) out.push(minLength(f.min))
    if (numeric) out.push(minValue(f.min))
  }
  if (f.max != null) {
    if (counted) out.push(maxLength(f.max))
    if (numeric) out.push(maxValue(f.max))
  }
  if (f.pattern) out.push(regex(new RegExp(`^(?:${f.pattern})$`), f.pattern_message || 'vetclube.content.pattern_mismatch'))
  return out
}

const choices = (f: ContentField) => (f.options ?? []).map((o) => ({ id: o.value, name: o.label }))

/** Tags are typed as "cães, vacinação" and kept as a list. */
const formatTags = (v: unknown) => (Array.isArray(v) ? v.join(', ') : (v ?? ''))
const parseTags = (v: string) =>
  v
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean)

function UploadInput({ field, source, kind }: { field: ContentField; source: string; kind: 'image' | 'file' }) {
  const translate = useTranslate()
  const { field: input, fieldState } = useInput({ source, validate: validatorsFor(field) })
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')
  const [picking, setPicking] = useState(false)
  const onChange = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    e.target.value = ''
    if (!file) return
    setBusy(true)
    setError('')
    try {
      const up = await upload(kind, file)
      input.onChange(up.key)
    } catch (err) {
      setError(err instanceof Error ? err.message : translate('vetclube.content.upload_failed'))
    } finally {
      setBusy(false)
    }
  }
  const value = typeof input.value === 'string' ? input.value : ''
  const inputId = `upload-${source.replace(/\W/g, '-')}`
  return (
    <Box sx={{ mb: 2 }} role="group" aria-labelledby={`${inputId}-label`}>
      <Typography component="label" id={`${inputId}-label`} htmlFor={inputId} variant="body2" color="text.secondary">
        {field.label}
        {field.required ? ' *' : ''}
      </Typography>
      {value && kind === 'image' && (
        <Box component="img" src={`/uploads/${value}`} alt={field.label} sx={{ display: 'block', maxWidth: 320, maxHeight: 180, my: 1, borderRadius: 1 }} />
      )}
      {value && kind === 'file' && (
        <Typography variant="body2" sx={{ my: 1 }}>
          <a href={`/uploads/${value}`} target="_blank" rel="noreferrer" onClick={(e) => openLibraryFile(e, value)}>
            {value.split('/').pop()}
          </a>
        </Typography>
      )}
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
        <MuiButton variant="outlined" component="label" disabled={busy}>
          {translate(busy ? 'vetclube.content.uploading' : kind === 'image' ? 'vetclube.content.upload_image' : 'vetclube.content.upload_file')}
          <input
            id={inputId}
            hidden
            type="file"
            accept={kind === 'image' ? 'image/jpeg,image/png,image/webp' : '.pdf,.docx,.xlsx,.pptx'}
            onChange={onChange}
          />
        </MuiButton>
        {kind === 'image' && (
          <MuiButton onClick={() => setPicking(true)} disabled={busy}>
            Escolher da biblioteca
          </MuiButton>
        )}
        {value && (
          <MuiButton onClick={() => input.onChange('')} disabled={busy}>
            {translate('ra.action.remove')}
          </MuiButton>
        )}
      </Box>
      {kind === 'image' && (
        <ImagePicker
          open={picking}
          onClose={() => setPicking(false)}
          onPick={(c) => {
            input.onChange(c.key)
            setError('')
            setPicking(false)
          }}
        />
      )}
      {(error || fieldState.error?.message) && <FormHelperText error>{error || translate(fieldState.error?.message ?? '')}</FormHelperText>}
      {field.help && <FormHelperText>{field.help}</FormHelperText>}
    </Box>
  )
}

// react-admin sorts reference choices by id unless told; the admin content
// list sorts only by title, updated_at, created_at and status (422 otherwise).
const CHOICE_SORT = { field: 'title', order: 'ASC' } as const

/** The input for one declared field, at fields.<name> in the item. */
export function FieldInput({ field: f }: { field: ContentField }) {
  const source = `fields.${f.name}`
  const common = { source, label: f.label, helperText: f.help || false, validate: validatorsFor(f), disabled: f.computed, fullWidth: true }
  switch (f.kind) {
    case 'text':
      return <TextInput {...common} />
    case 'video':
      return <MediaInput source={source} label={f.label} help={f.help} kind="video" required={f.required} validate={validatorsFor(f)} disabled={f.computed} />
    case 'url':
      return <TextInput {...common} type="url" />
    case 'long_text':
      return <TextInput {...common} multiline minRows={8} sx={{ '& textarea': { fontFamily: 'monospace' } }} />
    case 'number':
      return <NumberInput {...common} />
    case 'boolean':
      return <BooleanInput source={source} label={f.label} helperText={f.help || false} disabled={f.computed} />
    case 'select':
      return <SelectInput {...common} choices={choices(f)} />
    case 'multi_select':
      return <SelectArrayInput {...common} choices={choices(f)} />
    case 'tags':
      return <TextInput {...common} format={formatTags} parse={parseTags} helperText={f.help || 'vetclube.content.tags_help'} />
    case 'date':
      return <DateInput {...common} />
    case 'datetime':
      return (
        <TextInput
          {...common}
          type="datetime-local"
          format={(v: string) => utcToSaoPaulo(v)}
          parse={(v: string) => saoPauloToUTC(v) ?? ''}
          helperText={f.help || 'vetclube.content.sao_paulo_time'}
        />
      )
    case 'image':
      return <UploadInput field={f} source={source} kind="image" />
    case 'file':
      return <UploadInput field={f} source={source} kind="file" />
    case 'reference':
      return f.many ? (
        <ReferenceArrayInput source={source} reference={resourceName(f.target ?? '')} sort={CHOICE_SORT}>
          <AutocompleteArrayInput label={f.label} optionText="title" helperText={f.help || false} validate={validatorsFor(f)} />
        </ReferenceArrayInput>
      ) : (
        <ReferenceInput source={source} reference={resourceName(f.target ?? '')} sort={CHOICE_SORT}>
          <AutocompleteInput label={f.label} optionText="title" helperText={f.help || false} validate={validatorsFor(f)} />
        </ReferenceInput>
      )
    case 'children':
      return (
        <ReferenceArrayInput source={source} reference={resourceName(f.target ?? '')} sort={CHOICE_SORT}>
          <AutocompleteArrayInput label={f.label} optionText="title" helperText={f.help || 'vetclube.content.children_help'} />
        </ReferenceArrayInput>
      )
    default:
      return null
  }
}

/** The select that says where a video comes from (videos, lessons). */
export const VIDEO_SOURCE_FIELD = 'video_source'

/** Which value of the video source each source-specific field belongs to. */
const SOURCE_OF_FIELD: Record<string, string> = {
  youtube_url: 'youtube',
  vimeo_url: 'vimeo',
  stream_url: 'stream',
  video_asset: 'upload',
}

/**
 * Whether a field shows while the video source is `source`: a source's own
 * field only with that source (none before one is chosen); every other field
 * always. Hidden fields keep their values.
 */
export function shownForSource(name: string, source: string): boolean {
  const owner = SOURCE_OF_FIELD[name]
  return owner === undefined || owner === source
}

/**
 * 'Duração' of an uploaded video: the media library measured it, so it is
 * filled from the asset (mm:ss or h:mm:ss, as the field asks) and not typed.
 */
export function AssetDurationInput({ field: f, assetId }: { field: ContentField; assetId: string }) {
  const source = `fields.${f.name}`
  const { field } = useInput({ source, validate: validatorsFor(f) })
  const { data } = useGetOne<MediaAsset>('media', { id: assetId }, { enabled: !!assetId })
  const seconds = data?.duration_seconds
  const measured = seconds != null && seconds > 0 ? formatDuration(seconds) : ''
  const { onChange, value } = field
  useEffect(() => {
    if (measured && measured !== value) onChange(measured)
  }, [measured, value, onChange])
  return (
    <TextField
      id={`asset-duration-${f.name}`}
      label={f.label}
      value={typeof value === 'string' ? value : ''}
      fullWidth
      size="small"
      margin="dense"
      slotProps={{ input: { readOnly: true } }}
      helperText={measured ? 'Preenchida com a duração do vídeo enviado.' : 'Preenchida com a duração do vídeo enviado assim que ele for processado.'}
      sx={{ mb: 2 }}
    />
  )
}
