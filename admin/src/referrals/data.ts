import { httpClient } from '../providers/httpClient'
import type { ProgramSettings, ProgramStats, ReferralDetail } from './types'

const API = '/api/admin'

export async function referralDetail(id: string): Promise<ReferralDetail> {
  const { json } = await httpClient(`${API}/referrals/${encodeURIComponent(id)}`)
  return json as ReferralDetail
}

/** Approve or reject a flagged referral; the note is required to reject (the server says so). */
export async function reviewReferral(id: string, decision: 'approve' | 'reject', note: string): Promise<ReferralDetail> {
  const { json } = await httpClient(`${API}/referrals/${encodeURIComponent(id)}/review`, {
    method: 'POST',
    body: { decision, note: note.trim() },
  })
  return json as ReferralDetail
}

export async function programStats(): Promise<ProgramStats> {
  const { json } = await httpClient(`${API}/referral-stats`)
  return json as ProgramStats
}

export async function programSettings(): Promise<ProgramSettings> {
  const { json } = await httpClient(`${API}/referral-settings`)
  return json as ProgramSettings
}

export async function saveProgramSettings(s: ProgramSettings): Promise<ProgramSettings> {
  const { json } = await httpClient(`${API}/referral-settings`, { method: 'PUT', body: s })
  return json as ProgramSettings
}
