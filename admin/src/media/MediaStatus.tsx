import { useState } from 'react'
import { Alert, Box, Button, Chip, LinearProgress, Link, Stack, Typography } from '@mui/material'
import { useGetOne } from 'react-admin'
import { cancelProcessing, retryAsset } from './api'
import { STATE_COLOUR, formatBytes, formatDuration, kindLabel, percent, pollInterval, renditionRows, stateLabel } from './format'
import type { MediaAsset } from './types'

/** The state chip: 'Enviando', 'Processando (42 %)', 'Pronto', 'Erro'. */
export function MediaStateChip({ asset }: { asset: Pick<MediaAsset, 'state' | 'progress_percent'> }) {
  return <Chip size="small" color={STATE_COLOUR[asset.state] ?? 'default'} label={stateLabel(asset)} />
}

/** The picture that stands for an asset: the video's poster, the image itself. */
export function previewURL(asset: Pick<MediaAsset, 'kind' | 'url' | 'poster_url' | 'thumbnail_urls'>): string | undefined {
  return asset.poster_url || asset.thumbnail_urls?.[0] || (asset.kind === 'image' ? asset.url : undefined) || undefined
}

/** One asset's details for its current state. */
export function MediaDetails({ asset, onRetried }: { asset: MediaAsset; onRetried?: () => void }) {
  const [retrying, setRetrying] = useState(false)
  const [retryError, setRetryError] = useState('')
  const rows = renditionRows(asset.progress)
  const retry = async () => {
    setRetrying(true)
    setRetryError('')
    try {
      await retryAsset(asset.id)
      onRetried?.()
    } catch (e) {
      setRetryError(e instanceof Error ? e.message : 'Não foi possível tentar novamente.')
    } finally {
      setRetrying(false)
    }
  }
  const cancel = async () => {
    if (!window.confirm('Cancelar o processamento deste vídeo? Ele poderá ser processado de novo depois.')) return
    setRetrying(true)
    setRetryError('')
    try {
      await cancelProcessing(asset.id)
      onRetried?.()
    } catch (e) {
      setRetryError(e instanceof Error ? e.message : 'Não foi possível cancelar o processamento.')
    } finally {
      setRetrying(false)
    }
  }
  const preview = previewURL(asset)
  return (
    <Stack spacing={1} data-testid="media-status" aria-live="polite">
      <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap">
        <MediaStateChip asset={asset} />
        <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
          {asset.original_name} · {kindLabel(asset.kind)} · {formatBytes(asset.size_bytes)}
        </Typography>
      </Stack>
      {asset.state === 'enviando' && (
        <Typography variant="body2" color="text.secondary">
          O envio do arquivo ainda não terminou.
        </Typography>
      )}
      {asset.state === 'processando' && (
        <Box>
          <LinearProgress
            variant="determinate"
            value={percent(asset.progress_percent)}
            aria-label="Processamento do vídeo"
            sx={{ height: 8, borderRadius: 1, my: 0.5 }}
          />
          {rows.length > 0 && (
            <Box component="ul" sx={{ m: 0, pl: 2 }} aria-label="Versões do vídeo">
              {rows.map((r) => (
                <Typography key={r.name} component="li" variant="body2">
                  {r.name}: {r.percent === 100 ? 'pronta' : `${r.percent} %`}
                </Typography>
              ))}
            </Box>
          )}
          <Button size="small" color="warning" onClick={() => void cancel()} disabled={retrying} sx={{ mt: 0.5 }}>
            Cancelar processamento
          </Button>
        </Box>
      )}
      {asset.state === 'pronto' && (
        <Stack direction="row" spacing={2} alignItems="flex-start" useFlexGap flexWrap="wrap">
          {preview && (
            <Box component="img" src={preview} alt={`Pré-visualização de ${asset.original_name}`} sx={{ maxWidth: 240, maxHeight: 135, borderRadius: 1 }} />
          )}
          <Box>
            {asset.kind === 'video' && <Typography variant="body2">Duração: {formatDuration(asset.duration_seconds)}</Typography>}
            {asset.width && asset.height ? (
              <Typography variant="body2">
                Resolução: {asset.width}×{asset.height}
              </Typography>
            ) : null}
            {asset.kind === 'video' && rows.length > 0 && (
              <Typography variant="body2">Versões: {rows.map((r) => r.name).join(', ')}</Typography>
            )}
            {asset.kind === 'document' && asset.url && (
              <Link href={asset.url} target="_blank" rel="noreferrer" variant="body2">
                {asset.mime_type === 'application/pdf' ? 'Abrir o PDF' : 'Abrir o documento'}
              </Link>
            )}
          </Box>
        </Stack>
      )}
      {asset.state === 'erro' && (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => void retry()} disabled={retrying}>
              Tentar novamente
            </Button>
          }
        >
          {asset.error || 'O processamento falhou.'}
        </Alert>
      )}
      {retryError && <Alert severity="error">{retryError}</Alert>}
    </Stack>
  )
}

/** An asset's status, read every 2 s while it is being sent or processed. */
export function MediaStatus({ id }: { id: string }) {
  const { data, error, isPending, refetch } = useGetOne<MediaAsset>(
    'media',
    { id },
    { enabled: !!id, refetchInterval: (query) => pollInterval(query.state.data as MediaAsset | undefined) },
  )
  if (!id) return null
  if (isPending) return <LinearProgress aria-label="Carregando o arquivo" />
  if (error || !data) {
    return <Alert severity="warning">Não foi possível ler este arquivo da biblioteca ({id}).</Alert>
  }
  return <MediaDetails asset={data} onRetried={() => void refetch()} />
}
