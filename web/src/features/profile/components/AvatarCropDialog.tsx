import { useCallback, useId, useState } from 'react'
import Cropper, { type Area } from 'react-easy-crop'
import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { cropToBlob } from '../cropImage'

/**
 * The avatar's image-crop modal: a round square-aspect crop with drag, pinch,
 * wheel or arrow keys to move and a zoom slider; "Salvar foto" hands back the
 * cropped JPEG.
 */
export function AvatarCropDialog({
  src,
  open,
  onCancel,
  onCropped,
  busy,
  progress,
}: {
  src: string | null
  open: boolean
  onCancel: () => void
  onCropped: (blob: Blob) => void
  busy: boolean
  /** Upload progress 0–1 while busy. */
  progress: number
}) {
  const [crop, setCrop] = useState({ x: 0, y: 0 })
  const [zoom, setZoom] = useState(1)
  const [area, setArea] = useState<Area | null>(null)
  const [error, setError] = useState<string | null>(null)
  const zoomId = useId()

  const onCropComplete = useCallback((_: Area, pixels: Area) => setArea(pixels), [])

  async function save() {
    if (!src || !area) return
    setError(null)
    try {
      onCropped(await cropToBlob(src, area))
    } catch {
      setError('Não foi possível recortar a imagem. Tente outra foto.')
    }
  }

  const percent = Math.round(progress * 100)
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next && !busy) onCancel()
      }}
      title="Recortar foto de perfil"
      description="Arraste a imagem ou use as setas do teclado para posicionar, e ajuste o zoom."
      footer={
        <>
          <Button variant="outline" onClick={onCancel} disabled={busy}>
            Cancelar
          </Button>
          <Button onClick={save} loading={busy} disabled={!area}>
            Salvar foto
          </Button>
        </>
      }
    >
      <div className="relative h-72 w-full overflow-hidden rounded-xl bg-neutral-900 sm:h-80">
        {src && (
          <Cropper
            image={src}
            crop={crop}
            zoom={zoom}
            aspect={1}
            cropShape="round"
            showGrid={false}
            onCropChange={setCrop}
            onZoomChange={setZoom}
            onCropComplete={onCropComplete}
            mediaProps={{ alt: 'Foto escolhida para recortar' }}
            cropperProps={{
              role: 'group',
              'aria-label': 'Área de recorte: use as setas do teclado para mover a imagem',
            }}
          />
        )}
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={zoomId} className="text-sm font-medium">
          Zoom
        </label>
        <input
          id={zoomId}
          type="range"
          min={1}
          max={3}
          step={0.05}
          value={zoom}
          onChange={(e) => setZoom(Number(e.target.value))}
          aria-valuetext={`${Math.round(zoom * 100)}%`}
          className="w-full accent-primary"
          disabled={busy}
        />
      </div>
      {busy && (
        <div className="flex flex-col gap-1.5">
          <div className="flex justify-between text-sm">
            <span id={`${zoomId}-upload`}>Enviando foto...</span>
            <span aria-hidden="true">{percent}%</span>
          </div>
          <div
            role="progressbar"
            aria-labelledby={`${zoomId}-upload`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-2 w-full overflow-hidden rounded-full bg-muted"
          >
            <div className="h-full bg-primary transition-[width]" style={{ width: `${percent}%` }} />
          </div>
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </Dialog>
  )
}
