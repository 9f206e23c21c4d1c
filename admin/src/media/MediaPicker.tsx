import { useState } from 'react'
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  TextField,
} from '@mui/material'
import { useGetList } from 'react-admin'
import { formatBytes, formatDuration } from './format'
import { previewURL } from './MediaStatus'
import type { MediaAsset, MediaKind } from './types'

/** A dialog listing the library's ready assets of one kind, with a search; answers the chosen one. */
export function MediaPicker({
  open,
  kind,
  onClose,
  onPick,
}: {
  open: boolean
  kind: MediaKind
  onClose: () => void
  onPick: (asset: MediaAsset) => void
}) {
  const [q, setQ] = useState('')
  const { data, isPending, error } = useGetList<MediaAsset>(
    'media',
    { filter: { kind, state: 'pronto', ...(q.trim() ? { q: q.trim() } : {}) }, pagination: { page: 1, perPage: 20 }, sort: { field: 'created_at', order: 'DESC' } },
    { enabled: open },
  )
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="media-picker-title">
      <DialogTitle id="media-picker-title">Escolher da biblioteca de mídia</DialogTitle>
      <DialogContent>
        <TextField label="Buscar pelo nome" value={q} onChange={(e) => setQ(e.target.value)} fullWidth margin="dense" autoFocus />
        {isPending && <LinearProgress aria-label="Carregando a biblioteca" />}
        {error && <Alert severity="error">Não foi possível carregar a biblioteca de mídia.</Alert>}
        {!isPending && !error && (data ?? []).length === 0 && (
          <Alert severity="info" sx={{ mt: 1 }}>
            Nenhum arquivo pronto encontrado.
          </Alert>
        )}
        <List dense aria-label="Arquivos prontos">
          {(data ?? []).map((a) => {
            const preview = previewURL(a)
            return (
              <ListItem key={a.id} disablePadding>
                <ListItemButton onClick={() => onPick(a)}>
                  {preview ? (
                    <Box component="img" src={preview} alt="" sx={{ width: 80, height: 45, objectFit: 'cover', borderRadius: 0.5, mr: 2 }} />
                  ) : (
                    <Box sx={{ width: 80, height: 45, mr: 2, bgcolor: 'action.hover', borderRadius: 0.5 }} />
                  )}
                  <ListItemText
                    primary={a.original_name}
                    secondary={[a.kind === 'video' ? formatDuration(a.duration_seconds) : '', formatBytes(a.size_bytes)].filter(Boolean).join(' · ')}
                  />
                </ListItemButton>
              </ListItem>
            )
          })}
        </List>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancelar</Button>
      </DialogActions>
    </Dialog>
  )
}
