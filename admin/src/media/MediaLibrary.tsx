import { useState } from 'react'
import DeleteIcon from '@mui/icons-material/Delete'
import DescriptionIcon from '@mui/icons-material/Description'
import UploadIcon from '@mui/icons-material/CloudUpload'
import { Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, Link, Stack, Typography } from '@mui/material'
import {
  Confirm,
  Datagrid,
  DateField,
  FunctionField,
  List,
  SearchInput,
  SelectInput,
  TopToolbar,
  useNotify,
  useRecordContext,
  useRefresh,
} from 'react-admin'
import { httpClient } from '../providers/httpClient'
import { MEDIA_API } from './api'
import { KIND_CHOICES, STATE_CHOICES, formatBytes, formatDuration, kindLabel, othersText, pollInterval } from './format'
import { MediaDetails, MediaStateChip, previewURL } from './MediaStatus'
import { MediaUploader } from './MediaUploader'
import type { MediaAsset } from './types'

function UploadButton() {
  const [open, setOpen] = useState(false)
  const refresh = useRefresh()
  return (
    <>
      <Button size="small" startIcon={<UploadIcon />} onClick={() => setOpen(true)}>
        Enviar arquivo
      </Button>
      <Dialog
        open={open}
        onClose={() => {
          setOpen(false)
          refresh()
        }}
        fullWidth
        maxWidth="sm"
        aria-labelledby="media-upload-title"
      >
        <DialogTitle id="media-upload-title">Enviar para a biblioteca de mídia</DialogTitle>
        <DialogContent>
          <Typography variant="body2" color="text.secondary">
            Vídeos mp4, mov, webm ou mkv até 4 GB; imagens jpg, png, webp ou gif até 20 MB; PDF até 100 MB.
          </Typography>
          <MediaUploader label="Escolher arquivo" onAsset={() => refresh()} onComplete={() => refresh()} />
        </DialogContent>
        <DialogActions>
          <Button
            onClick={() => {
              setOpen(false)
              refresh()
            }}
          >
            Fechar
          </Button>
        </DialogActions>
      </Dialog>
    </>
  )
}

function LibraryActions() {
  return (
    <TopToolbar>
      <UploadButton />
    </TopToolbar>
  )
}

/** Excluir, after a confirmation; the server refuses (409, pt-BR) while content uses the file. */
function DeleteAssetButton() {
  const asset = useRecordContext<MediaAsset>()
  const notify = useNotify()
  const refresh = useRefresh()
  const [asking, setAsking] = useState(false)
  const [busy, setBusy] = useState(false)
  if (!asset) return null
  const remove = async () => {
    setBusy(true)
    try {
      await httpClient(`${MEDIA_API}/${encodeURIComponent(asset.id)}`, { method: 'DELETE' })
      notify('Arquivo excluído.', { type: 'success' })
      refresh()
    } catch (e) {
      notify(e instanceof Error ? e.message : 'Não foi possível excluir o arquivo.', { type: 'error' })
    } finally {
      setBusy(false)
      setAsking(false)
    }
  }
  return (
    <Box onClick={(e) => e.stopPropagation()}>
      <Button size="small" color="error" startIcon={<DeleteIcon />} onClick={() => setAsking(true)} aria-label={`Excluir ${asset.original_name}`}>
        Excluir
      </Button>
      <Confirm
        isOpen={asking}
        loading={busy}
        title={`Excluir "${asset.original_name}"?`}
        content="O arquivo e as versões geradas serão apagados. Conteúdos que o usam impedem a exclusão."
        confirm="Excluir"
        onConfirm={() => void remove()}
        onClose={() => setAsking(false)}
      />
    </Box>
  )
}

function Preview({ asset }: { asset: MediaAsset }) {
  const url = previewURL(asset)
  if (url) return <Box component="img" src={url} alt={`Prévia de ${asset.original_name}`} loading="lazy" sx={{ width: 96, height: 54, objectFit: 'cover', borderRadius: 0.5, display: 'block' }} />
  return (
    <Box sx={{ width: 96, height: 54, display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: 'action.hover', borderRadius: 0.5 }}>
      {asset.kind === 'document' && <DescriptionIcon color="action" />}
    </Box>
  )
}

function UsedIn({ asset }: { asset: MediaAsset }) {
  const uses = asset.used_in ?? []
  if (uses.length === 0) return <Typography variant="body2" color="text.secondary">—</Typography>
  const hidden = uses.filter((u) => u.hidden).length
  return (
    <Stack spacing={0.25} sx={{ maxWidth: 240, overflowWrap: 'anywhere' }} onClick={(e) => e.stopPropagation()}>
      {uses
        .filter((u) => !u.hidden)
        .map((u) => (
          <Link key={`${u.type}/${u.id}`} href={`#/content/${encodeURIComponent(u.type)}/${encodeURIComponent(u.id)}`} variant="body2">
            {u.title || u.id}
          </Link>
        ))}
      {hidden > 0 && (
        <Typography variant="body2" color="text.secondary">
          {othersText(hidden)}
        </Typography>
      )}
    </Stack>
  )
}

function ExpandedAsset() {
  const asset = useRecordContext<MediaAsset>()
  const refresh = useRefresh()
  return asset ? <MediaDetails asset={asset} onRetried={refresh} /> : null
}

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Buscar pelo nome" />,
  <SelectInput key="kind" source="kind" choices={KIND_CHOICES} alwaysOn emptyText="Todos" />,
  <SelectInput key="state" source="state" choices={STATE_CHOICES} alwaysOn emptyText="Todos" />,
]

/**
 * The media library: every uploaded video, image and PDF with its state
 * (refreshed every 2 s while any listed asset is still being sent or
 * processed), where it is used, and upload and delete.
 */
export default function MediaLibrary() {
  return (
    <List
      title="Biblioteca de mídia"
      filters={filters}
      actions={<LibraryActions />}
      sort={{ field: 'created_at', order: 'DESC' }}
      perPage={25}
      exporter={false}
      empty={false}
      queryOptions={{
        refetchInterval: (query) => {
          const rows = (query.state.data as { data?: MediaAsset[] } | undefined)?.data ?? []
          return rows.some((a) => pollInterval(a) !== false) ? 2000 : false
        },
      }}
    >
      <Datagrid bulkActionButtons={false} rowClick="expand" expand={<ExpandedAsset />}>
        <FunctionField<MediaAsset> source="preview" sortable={false} render={(a) => <Preview asset={a} />} />
        <FunctionField<MediaAsset>
          source="original_name"
          render={(a) => (
            // Long file names wrap instead of widening the table.
            <Box component="span" sx={{ display: 'block', maxWidth: 260, overflowWrap: 'anywhere' }}>
              {a.original_name}
            </Box>
          )}
        />
        <FunctionField<MediaAsset> source="kind" render={(a) => kindLabel(a.kind)} />
        <FunctionField<MediaAsset> source="state" render={(a) => <MediaStateChip asset={a} />} />
        <FunctionField<MediaAsset> source="size_bytes" render={(a) => formatBytes(a.size_bytes)} />
        <FunctionField<MediaAsset> source="duration_seconds" sortable={false} render={(a) => (a.kind === 'video' ? formatDuration(a.duration_seconds) : '—')} />
        <FunctionField<MediaAsset> source="used_in" sortable={false} render={(a) => <UsedIn asset={a} />} />
        <DateField source="created_at" showTime locales="pt-BR" />
        <FunctionField<MediaAsset> label="vetclube.media.actions" sortable={false} render={() => <DeleteAssetButton />} />
      </Datagrid>
    </List>
  )
}
