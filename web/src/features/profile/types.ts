// Shapes of the profile API (BRIEF.md "API contract"; core/profiles on the server).

export type Profile = {
  id: string
  first_name: string
  last_name: string
  email: string
  avatar_url: string | null
  verified: boolean
  specialties: string[]
  connections_count: number
  has_crmv: boolean
  title: string | null
  biography: string | null
  crmv: string | null
  phone: string | null
  has_whatsapp: boolean
  is_not_veterinarian: boolean
  cpf: string | null
  time_zone?: string | null
  created_at: string
  updated_at: string
}

/** What GET /api/profiles/{id} returns: never email, phone or CPF. */
export type PublicProfile = Pick<
  Profile,
  | 'id'
  | 'first_name'
  | 'last_name'
  | 'avatar_url'
  | 'verified'
  | 'specialties'
  | 'connections_count'
  | 'has_crmv'
  | 'title'
  | 'biography'
  | 'crmv'
  | 'is_not_veterinarian'
  | 'created_at'
>

export type ProfileUpdate = {
  first_name: string
  last_name: string
  title: string
  biography: string
  specialties: string[]
  has_crmv: boolean
  crmv: string
  phone: string
  has_whatsapp: boolean
  is_not_veterinarian: boolean
  cpf: string
  time_zone?: string
}

export type Specialty = { value: string; label: string }

export type Completeness = { complete: boolean; missing: CompletenessField[] }

export type CompletenessField =
  | 'first_name'
  | 'last_name'
  | 'title'
  | 'biography'
  | 'specialties'
  | 'crmv'
