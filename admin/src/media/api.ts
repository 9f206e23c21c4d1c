import { httpClient } from '../providers/httpClient'
import type { MediaAsset } from './types'

export const MEDIA_API = '/api/admin/media'
/** The tus endpoint (POST creates, HEAD/PATCH resume, DELETE terminates). */
export const UPLOADS_ENDPOINT = `${MEDIA_API}/uploads/`
/** The creation response names the asset the upload fills. */
export const ASSET_ID_HEADER = 'X-Media-Asset-Id'

const one = (id: string) => `${MEDIA_API}/${encodeURIComponent(id)}`

export async function getAsset(id: string): Promise<MediaAsset> {
  return (await httpClient(one(id))).json as MediaAsset
}

/** Processing again after an error (a new attempt); 409 from any other state. */
export async function retryAsset(id: string): Promise<void> {
  await httpClient(`${one(id)}/retry`, { method: 'POST' })
}

/** Stops a video's processing: the asset ends in erro with the reason; 409 unless it is processando. */
export async function cancelProcessing(id: string): Promise<void> {
  await httpClient(`${one(id)}/cancel`, { method: 'POST' })
}

/** The asset a tus upload fills, when its creation answer was not seen (an upload resumed after a reload). */
export async function assetOfUpload(uploadURL: string): Promise<MediaAsset | undefined> {
  const tusID = uploadURL.replace(/\/+$/, '').split('/').pop() ?? ''
  if (!tusID) return undefined
  const { json } = await httpClient(`${MEDIA_API}?upload_id=${encodeURIComponent(tusID)}`)
  return Array.isArray(json) ? (json[0] as MediaAsset | undefined) : undefined
}
