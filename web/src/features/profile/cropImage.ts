// Turns the area chosen in the crop dialog into the square image that is uploaded.
// The server re-encodes it anyway (and strips metadata); cropping here keeps the
// upload small and shows the user exactly what others will see.

export type PixelArea = { x: number; y: number; width: number; height: number }

export const AVATAR_SIZE = 512
export const MAX_AVATAR_BYTES = 5 * 1024 * 1024
export const ACCEPTED_AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp']

/** pt-BR reason a chosen file cannot be an avatar, or null. */
export function avatarFileError(file: { type: string; size: number }): string | null {
  if (!ACCEPTED_AVATAR_TYPES.includes(file.type)) return 'Formato não suportado. Use uma imagem JPEG, PNG ou WebP.'
  if (file.size > MAX_AVATAR_BYTES) return 'A imagem deve ter no máximo 5 MB.'
  return null
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image()
    img.onload = () => resolve(img)
    img.onerror = () => reject(new Error('image failed to load'))
    img.src = src
  })
}

/** Draws `area` of the image at `src` onto a square canvas and encodes it as JPEG. */
export async function cropToBlob(src: string, area: PixelArea, size = AVATAR_SIZE): Promise<Blob> {
  const img = await loadImage(src)
  const canvas = document.createElement('canvas')
  const side = Math.min(size, Math.round(Math.max(area.width, area.height)))
  canvas.width = side
  canvas.height = side
  const ctx = canvas.getContext('2d')
  if (!ctx) throw new Error('canvas 2d context unavailable')
  // JPEG has no transparency: paint white under transparent PNG/WebP areas.
  ctx.fillStyle = '#ffffff'
  ctx.fillRect(0, 0, side, side)
  ctx.imageSmoothingQuality = 'high'
  ctx.drawImage(img, area.x, area.y, area.width, area.height, 0, 0, side, side)
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('canvas encoding failed'))), 'image/jpeg', 0.9),
  )
}
