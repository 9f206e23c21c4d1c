import { useState } from 'react'
import {
  Alert,
  Box,
  Button,
  ButtonBase,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  TextField,
  Typography,
} from '@mui/material'
import { useGetList } from 'react-admin'
import type { MediaAsset } from './types'

/** One picture an image field may take: an image of the library, or a frame a video's processing extracted. */
export interface PictureChoice {
  /** The storage key, the value an image field keeps. */
  key: string
  url: string
  label: string
}

/**
 * The pictures ready assets offer: each image itself; each video's poster and
 * generated thumbnails, so a video's card can show a frame chosen by the
 * editor instead of the default poster.
 */
export function pictureChoices(assets: MediaAsset[]): PictureChoice[] {
  const out: PictureChoice[] = []
  for (const a of assets) {
    let thumb = 0
    for (const p of a.pictures ?? []) {
      const label =
        p.role === 'image' ? a.original_name : p.role === 'poster' ? `Capa de ${a.original_name}` : `Miniatura ${++thumb} de ${a.original_name}`
      out.push({ key: p.key, url: p.url, label })
    }
  }
  return out
}

/** A dialog of the library's ready images and video frames, with a search; answers the chosen picture. */
export function ImagePicker({ open, onClose, onPick }: { open: boolean; onClose: () => void; onPick: (choice: PictureChoice) => void }) {
  const [q, setQ] = useState('')
  const query = (kind: 'image' | 'video') => ({
    filter: { kind, state: 'pronto', ...(q.trim() ? { q: q.trim() } : {}) },
    pagination: { page: 1, perPage: 12 },
    sort: { field: 'created_at', order: 'DESC' as const },
  })
  const images = useGetList<MediaAsset>('media', query('image'), { enabled: open })
  const videos = useGetList<MediaAsset>('media', query('video'), { enabled: open })
  const pending = images.isPending || videos.isPending
  const failed = images.error || videos.error
  const choices = pictureChoices([...(images.data ?? []), ...(videos.data ?? [])])
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="md" aria-labelledby="image-picker-title">
      <DialogTitle id="image-picker-title">Escolher imagem da biblioteca</DialogTitle>
      <DialogContent>
        <TextField label="Buscar pelo nome" value={q} onChange={(e) => setQ(e.target.value)} fullWidth margin="dense" autoFocus />
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Imagens enviadas e quadros gerados dos vídeos prontos.
        </Typography>
        {pending && <LinearProgress aria-label="Carregando a biblioteca" />}
        {failed && <Alert severity="error">Não foi possível carregar a biblioteca de mídia.</Alert>}
        {!pending && !failed && choices.length === 0 && (
          <Alert severity="info" sx={{ mt: 1 }}>
            Nenhuma imagem pronta encontrada.
          </Alert>
        )}
        <Box role="list" aria-label="Imagens prontas" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(160px, 1fr))', gap: 1.5 }}>
          {choices.map((c) => (
            <Box role="listitem" key={c.key}>
              <ButtonBase
                onClick={() => onPick(c)}
                aria-label={c.label}
                sx={{ display: 'block', width: '100%', textAlign: 'left', borderRadius: 1, '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main' } }}
              >
                <Box component="img" src={c.url} alt="" loading="lazy" sx={{ width: '100%', aspectRatio: '16 / 9', objectFit: 'cover', borderRadius: 1, display: 'block' }} />
                <Typography variant="caption" sx={{ display: 'block', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {c.label}
                </Typography>
              </ButtonBase>
            </Box>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
      </DialogActions>
    </Dialog>
  )
}
