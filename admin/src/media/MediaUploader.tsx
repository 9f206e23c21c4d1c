import { useEffect, useRef, useState, type ChangeEvent } from 'react'
import CloudUploadIcon from '@mui/icons-material/CloudUpload'
import { Alert, Box, Button, LinearProgress, Stack, Typography } from '@mui/material'
import type { Upload } from 'tus-js-client'
import { ALL_KINDS, acceptFor, precheck, progressText } from './format'
import type { MediaKind } from './types'
import { createUpload } from './upload'

type Phase = 'idle' | 'sending' | 'paused' | 'done' | 'failed'

export interface MediaUploaderProps {
  /** The kinds this place accepts (the file picker and the pre-check follow them). */
  kinds?: MediaKind[]
  /** The picker button's text. */
  label?: string
  /** The asset the upload fills, as soon as the server names it (before the bytes are all sent). */
  onAsset?: (assetId: string) => void
  /** Every byte is on the server; a video now starts processing. */
  onComplete?: (assetId: string) => void
}

/**
 * Sends one file to the media library over tus: a progress bar with percent
 * and bytes, Pausar / Retomar, automatic retries that resume from where the
 * server stopped, and the server's pt-BR reason when it refuses the file.
 */
export function MediaUploader({ kinds = ALL_KINDS, label = 'Enviar arquivo', onAsset, onComplete }: MediaUploaderProps) {
  const [phase, setPhase] = useState<Phase>('idle')
  const [file, setFile] = useState<File | null>(null)
  const [sent, setSent] = useState(0)
  const [total, setTotal] = useState(0)
  const [message, setMessage] = useState('')
  const [retrying, setRetrying] = useState(false)
  const uploadRef = useRef<Upload | null>(null)
  const assetRef = useRef('')
  // The latest callbacks, so an upload started earlier reports to the current form.
  const callbacks = useRef({ onAsset, onComplete })
  callbacks.current = { onAsset, onComplete }

  // Leaving the page pauses the transfer (the server keeps what it has; the
  // same file chosen again resumes). A dropped connection resumes when the
  // browser is back online.
  useEffect(() => () => void uploadRef.current?.abort(false), [])
  useEffect(() => {
    if (phase !== 'paused' || !retrying) return
    const resume = () => {
      setRetrying(false)
      setMessage('')
      setPhase('sending')
      uploadRef.current?.start()
    }
    window.addEventListener('online', resume)
    return () => window.removeEventListener('online', resume)
  }, [phase, retrying])

  const choose = (e: ChangeEvent<HTMLInputElement>) => {
    const chosen = e.target.files?.[0]
    e.target.value = ''
    if (!chosen) return
    const check = precheck(chosen, kinds)
    setFile(chosen)
    setSent(0)
    setTotal(chosen.size)
    setRetrying(false)
    if (!check.ok) {
      setMessage(check.message)
      setPhase('failed')
      uploadRef.current = null
      return
    }
    setMessage('')
    setPhase('sending')
    assetRef.current = ''
    void createUpload(chosen, {
      onProgress: (s, t) => {
        setSent(s)
        setTotal(t)
        setRetrying(false)
      },
      onAsset: (id) => {
        assetRef.current = id
        callbacks.current.onAsset?.(id)
      },
      onRetrying: () => setRetrying(true),
      onSuccess: () => {
        setPhase('done')
        setRetrying(false)
        setSent(chosen.size)
        callbacks.current.onComplete?.(assetRef.current)
      },
      onError: (msg, status) => {
        setMessage(msg)
        // A network failure keeps what was sent: Retomar (or the connection
        // coming back) continues from the server's offset.
        if (status === 0) {
          setRetrying(true)
          setPhase('paused')
        } else {
          setRetrying(false)
          setPhase('failed')
        }
      },
    })
      .then(({ upload, start }) => {
        uploadRef.current = upload
        return start()
      })
      .catch(() => {
        setMessage('Não foi possível iniciar o envio. Recarregue a página e tente de novo.')
        setPhase('failed')
      })
  }

  const pause = () => {
    void uploadRef.current?.abort(false)
    setRetrying(false)
    setPhase('paused')
  }
  const resume = () => {
    setMessage('')
    setRetrying(false)
    setPhase('sending')
    uploadRef.current?.start()
  }

  const active = phase === 'sending' || phase === 'paused'
  const pct = total > 0 ? Math.min(100, Math.floor((sent / total) * 100)) : 0
  return (
    <Stack spacing={1} sx={{ my: 1 }} data-testid="media-uploader">
      <Box>
        <Button variant="outlined" component="label" startIcon={<CloudUploadIcon />} disabled={active}>
          {label}
          <input hidden type="file" accept={acceptFor(kinds)} onChange={choose} aria-label={label} />
        </Button>
      </Box>
      {file && phase !== 'idle' && !(phase === 'failed' && sent === 0) && (
        <Box>
          <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
            {file.name}
          </Typography>
          <LinearProgress
            variant="determinate"
            value={pct}
            aria-label={`Envio de ${file.name}`}
            color={phase === 'failed' ? 'error' : phase === 'done' ? 'success' : 'primary'}
            sx={{ height: 8, borderRadius: 1, my: 0.5 }}
          />
          <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap">
            <Typography variant="body2" color="text.secondary" aria-live="polite">
              {progressText(sent, total)}
              {phase === 'paused' && !retrying ? ' · pausado' : ''}
              {phase === 'done' ? ' · envio concluído' : ''}
            </Typography>
            {phase === 'sending' && (
              <Button size="small" onClick={pause}>
                Pausar
              </Button>
            )}
            {phase === 'paused' && (
              <Button size="small" variant="contained" onClick={resume}>
                Retomar
              </Button>
            )}
          </Stack>
          {phase === 'sending' && retrying && (
            <Typography variant="body2" color="warning.main">
              A conexão falhou; tentando de novo…
            </Typography>
          )}
        </Box>
      )}
      {message && (
        <Alert severity={phase === 'paused' ? 'warning' : 'error'} role="alert">
          {message}
        </Alert>
      )}
    </Stack>
  )
}
