import { useState } from 'react'
import { Box, Button, FormHelperText, Stack, Typography } from '@mui/material'
import { useInput, useTranslate, type Validator } from 'react-admin'
import { MediaPicker } from './MediaPicker'
import { MediaStatus } from './MediaStatus'
import { MediaUploader } from './MediaUploader'
import type { MediaKind } from './types'

const NOUN: Record<MediaKind, { upload: string; change: string }> = {
  video: { upload: 'Enviar vídeo', change: 'Enviar outro vídeo' },
  image: { upload: 'Enviar imagem', change: 'Enviar outra imagem' },
  document: { upload: 'Enviar PDF', change: 'Enviar outro PDF' },
}

/**
 * A content field holding a media asset id: the chosen asset's status (polled
 * while it is sent and processed), an upload of a new file, or a pick from the
 * library's ready assets. The id is stored as soon as the server names the
 * asset, so saving mid-upload keeps the choice.
 */
export function MediaInput({
  source,
  label,
  help,
  kind,
  required,
  validate,
  disabled,
}: {
  source: string
  label: string
  help?: string
  kind: MediaKind
  required?: boolean
  validate?: Validator[]
  disabled?: boolean
}) {
  const translate = useTranslate()
  const { field, fieldState } = useInput({ source, validate })
  const [picking, setPicking] = useState(false)
  const value = typeof field.value === 'string' ? field.value : ''
  const labelId = `media-${source.replace(/\W/g, '-')}`
  return (
    <Box sx={{ mb: 2 }} role="group" aria-labelledby={labelId}>
      <Typography id={labelId} variant="body2" color="text.secondary">
        {label}
        {required ? ' *' : ''}
      </Typography>
      {value && (
        <Box sx={{ my: 1 }}>
          <MediaStatus id={value} />
        </Box>
      )}
      {!disabled && (
        <>
          <MediaUploader kinds={[kind]} label={value ? NOUN[kind].change : NOUN[kind].upload} onAsset={(id) => field.onChange(id)} />
          <Stack direction="row" spacing={1}>
            <Button size="small" onClick={() => setPicking(true)}>
              Escolher da biblioteca
            </Button>
            {value && (
              <Button size="small" onClick={() => field.onChange('')}>
                Remover
              </Button>
            )}
          </Stack>
          <MediaPicker
            open={picking}
            kind={kind}
            onClose={() => setPicking(false)}
            onPick={(asset) => {
              field.onChange(asset.id)
              setPicking(false)
            }}
          />
        </>
      )}
      {fieldState.error?.message && <FormHelperText error>{translate(fieldState.error.message)}</FormHelperText>}
      {help && <FormHelperText>{help}</FormHelperText>}
    </Box>
  )
}
