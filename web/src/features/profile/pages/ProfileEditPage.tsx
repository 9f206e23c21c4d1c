import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { Camera } from 'lucide-react'
import { Avatar } from '@/components/ui/Avatar'
import { Button, buttonClasses } from '@/components/ui/Button'
import { Card } from '@/components/ui/Card'
import { Input } from '@/components/ui/Input'
import { Spinner } from '@/components/ui/Spinner'
import { toast } from '@/components/ui/toast'
import { usePageTitle } from '@/lib/usePageTitle'
import { ApiError } from '@/lib/api'
import { useMyProfile, useSpecialties, useUpdateProfile, useUploadAvatar } from '../api'
import { completenessFieldLabel, missingProfileFields } from '../completeness'
import { AvatarCropDialog } from '../components/AvatarCropDialog'
import { CheckboxField, TextareaField } from '../components/FormControls'
import { SpecialtiesSelect } from '../components/SpecialtiesSelect'
import { ACCEPTED_AVATAR_TYPES, avatarFileError } from '../cropImage'
import { displayName } from '@/lib/names'
import type { Profile, ProfileUpdate } from '../types'
import { formatCpf, formatPhone, MAX_BIOGRAPHY_LENGTH, validateProfile, type ProfileFieldErrors } from '../validators'
import { PROFILE_LOAD_ERROR } from './ProfilePage'

export const PROFILE_SAVED_MESSAGE = 'Perfil atualizado com sucesso!'
export const PROFILE_SAVE_FAILED_MESSAGE = 'Erro ao atualizar perfil'
const AVATAR_FAILED_MESSAGE = 'Erro ao enviar foto'

function toForm(p: Profile): ProfileUpdate {
  return {
    first_name: p.first_name ?? '',
    last_name: p.last_name ?? '',
    title: p.title ?? '',
    biography: p.biography ?? '',
    specialties: p.specialties ?? [],
    has_crmv: p.has_crmv,
    crmv: p.crmv ?? '',
    phone: p.phone ? formatPhone(p.phone) : '',
    has_whatsapp: p.has_whatsapp,
    is_not_veterinarian: p.is_not_veterinarian,
    cpf: p.cpf ? formatCpf(p.cpf) : '',
  }
}

// Form order, so focus goes to the first problem on screen.
const FIELD_ORDER: (keyof ProfileUpdate)[] = [
  'first_name', 'last_name', 'title', 'biography', 'specialties', 'is_not_veterinarian', 'has_crmv', 'crmv', 'phone', 'has_whatsapp', 'cpf',
]

/** /profile/edit — every profile field with per-field pt-BR errors, and the avatar crop-and-upload. */
export default function ProfileEditPage() {
  usePageTitle('Editar Perfil')
  const profile = useMyProfile()
  if (profile.isPending) {
    return (
      <div className="flex justify-center py-16">
        <Spinner label="Carregando perfil..." />
      </div>
    )
  }
  if (profile.isError) {
    return (
      <div role="alert" className="mx-auto max-w-3xl py-10 text-center font-medium">
        {PROFILE_LOAD_ERROR}
      </div>
    )
  }
  return <ProfileForm profile={profile.data} />
}

function ProfileForm({ profile }: { profile: Profile }) {
  const navigate = useNavigate()
  const specialties = useSpecialties()
  const update = useUpdateProfile()
  const [form, setForm] = useState<ProfileUpdate>(() => toForm(profile))
  const [errors, setErrors] = useState<ProfileFieldErrors>({})
  const formRef = useRef<HTMLFormElement>(null)

  const set = <K extends keyof ProfileUpdate>(field: K, value: ProfileUpdate[K]) => {
    setForm((f) => ({ ...f, [field]: value }))
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e))
  }

  function focusFirstError(found: ProfileFieldErrors) {
    const first = FIELD_ORDER.find((f) => found[f])
    if (!first) return
    // After React paints the error messages.
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus())
  }

  async function onSubmit(e: FormEvent) {
    e.preventDefault()
    const found = validateProfile(form)
    if (Object.keys(found).length > 0) {
      setErrors(found)
      focusFirstError(found)
      toast.error(PROFILE_SAVE_FAILED_MESSAGE)
      return
    }
    try {
      await update.mutateAsync({ ...form, crmv: form.has_crmv ? form.crmv : '' })
      toast.success(PROFILE_SAVED_MESSAGE)
      navigate('/profile')
    } catch (err) {
      const fields = err instanceof ApiError ? (err.fields as ProfileFieldErrors) : {}
      setErrors(fields)
      focusFirstError(fields)
      toast.error(PROFILE_SAVE_FAILED_MESSAGE)
    }
  }

  const missing = missingProfileFields(form)
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-5 py-4">
      <h1 className="text-2xl font-bold tracking-tight md:text-3xl">Editar Perfil</h1>
      <AvatarSection profile={profile} />
      {missing.length > 0 && (
        <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50">
          Para completar seu perfil, preencha: {missing.map((f) => completenessFieldLabel[f]).join(', ')}.
        </p>
      )}
      <Card className="p-5 md:p-6">
        <form ref={formRef} onSubmit={onSubmit} noValidate className="flex flex-col gap-5" aria-label="Dados do perfil">
          <div className="grid gap-4 sm:grid-cols-2">
            <Input label="Nome" name="first_name" autoComplete="given-name" value={form.first_name} onChange={(e) => set('first_name', e.target.value)} error={errors.first_name} required />
            <Input label="Sobrenome" name="last_name" autoComplete="family-name" value={form.last_name} onChange={(e) => set('last_name', e.target.value)} error={errors.last_name} required />
          </div>
          <Input
            label="Título profissional"
            name="title"
            value={form.title}
            onChange={(e) => set('title', e.target.value)}
            error={errors.title}
            hint="Ex.: Médica Veterinária, Clínico de pequenos animais"
            maxLength={120}
          />
          <TextareaField
            label="Biografia"
            name="biography"
            value={form.biography}
            onChange={(e) => set('biography', e.target.value)}
            error={errors.biography}
            hint={`Conte sua experiência e áreas de interesse (${[...form.biography].length}/${MAX_BIOGRAPHY_LENGTH} caracteres).`}
            maxLength={MAX_BIOGRAPHY_LENGTH}
          />
          {specialties.isPending ? (
            <Spinner label="Carregando especialidades..." />
          ) : specialties.isError ? (
            <p role="alert" className="text-sm text-destructive">
              Erro ao carregar especialidades.
            </p>
          ) : (
            <SpecialtiesSelect options={specialties.data} value={form.specialties} onChange={(v) => set('specialties', v)} error={errors.specialties} />
          )}

          <fieldset className="flex flex-col gap-4 border-t border-border pt-4">
            <legend className="sr-only">Registro profissional</legend>
            <CheckboxField
              name="is_not_veterinarian"
              label="Não sou médico-veterinário"
              hint="Estudantes e outros profissionais também são bem-vindos."
              checked={form.is_not_veterinarian}
              onChange={(v) => {
                set('is_not_veterinarian', v)
                if (v) set('has_crmv', false)
              }}
              error={errors.is_not_veterinarian}
            />
            <CheckboxField
              name="has_crmv"
              asSwitch
              label="Tenho registro no CRMV"
              checked={form.has_crmv}
              onChange={(v) => set('has_crmv', v)}
              error={errors.has_crmv}
            />
            {form.has_crmv && (
              <Input
                label="CRMV"
                name="crmv"
                value={form.crmv}
                onChange={(e) => set('crmv', e.target.value.toUpperCase())}
                onBlur={() => set('crmv', form.crmv.trim())}
                error={errors.crmv}
                placeholder="CRMV-SP 12345"
                hint="Formato: CRMV-UF número, por exemplo CRMV-SP 12345."
                autoCapitalize="characters"
                required
              />
            )}
          </fieldset>

          <fieldset className="flex flex-col gap-4 border-t border-border pt-4">
            <legend className="sr-only">Contato e documentos</legend>
            <Input
              label="Telefone"
              name="phone"
              type="tel"
              autoComplete="tel-national"
              inputMode="tel"
              value={form.phone}
              onChange={(e) => set('phone', e.target.value)}
              onBlur={() => form.phone && set('phone', formatPhone(form.phone))}
              error={errors.phone}
              placeholder="(11) 98765-4321"
            />
            <CheckboxField name="has_whatsapp" label="Este número tem WhatsApp" checked={form.has_whatsapp} onChange={(v) => set('has_whatsapp', v)} error={errors.has_whatsapp} />
            <Input
              label="CPF"
              name="cpf"
              inputMode="numeric"
              value={form.cpf}
              onChange={(e) => set('cpf', /[a-zA-Z]/.test(e.target.value) ? e.target.value : formatCpf(e.target.value))}
              error={errors.cpf}
              placeholder="000.000.000-00"
              hint="Usado apenas para certificados e pagamentos; nunca aparece no seu perfil público."
            />
          </fieldset>

          <div className="flex flex-col-reverse gap-3 border-t border-border pt-4 sm:flex-row sm:justify-end">
            <Link to="/profile" className={buttonClasses('outline')}>
              Cancelar
            </Link>
            <Button type="submit" loading={update.isPending}>
              Salvar alterações
            </Button>
          </div>
        </form>
      </Card>
    </div>
  )
}

const UNREADABLE_IMAGE_MESSAGE = 'Não foi possível ler esta imagem: o arquivo pode estar corrompido. Escolha outra foto.'

function AvatarSection({ profile }: { profile: Profile }) {
  const upload = useUploadAvatar()
  const inputRef = useRef<HTMLInputElement>(null)
  const [source, setSource] = useState<string | null>(null)
  const [progress, setProgress] = useState(0)
  const [fileError, setFileError] = useState<string | null>(null)

  // Object URLs hold the whole file in memory until revoked.
  useEffect(() => () => {
    if (source) URL.revokeObjectURL(source)
  }, [source])

  async function onFile(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0]
    e.target.value = '' // choosing the same file again must fire change again
    if (!file) return
    const problem = avatarFileError(file)
    setFileError(problem)
    if (problem) return
    // A file named .png may hold anything: decode it before opening the crop
    // dialog, which would otherwise show an empty, broken frame.
    const url = URL.createObjectURL(file)
    const image = new Image()
    image.src = url
    try {
      await image.decode()
    } catch {
      URL.revokeObjectURL(url)
      setFileError(UNREADABLE_IMAGE_MESSAGE)
      return
    }
    setProgress(0)
    setSource(url)
  }

  async function onCropped(blob: Blob) {
    setProgress(0)
    try {
      await upload.mutateAsync({ file: blob, onProgress: setProgress })
      toast.success('Foto atualizada com sucesso!')
      setSource(null)
    } catch (err) {
      toast.error(err instanceof ApiError && err.status >= 400 && err.status < 500 ? err.message : AVATAR_FAILED_MESSAGE)
    }
  }

  const name = displayName(profile)
  return (
    <Card className="flex flex-col items-center gap-4 p-5 sm:flex-row">
      <Avatar src={profile.avatar_url || null} name={name} className="h-20 w-20 text-xl" />
      <div className="flex flex-col items-center gap-2 sm:items-start">
        <p className="font-semibold">Foto de perfil</p>
        <input
          ref={inputRef}
          id="avatar-file"
          name="avatar"
          type="file"
          accept={ACCEPTED_AVATAR_TYPES.join(',')}
          onChange={(e) => void onFile(e)}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
        />
        <Button variant="outline" size="sm" onClick={() => inputRef.current?.click()}>
          <Camera aria-hidden="true" className="h-4 w-4" />
          Alterar foto
        </Button>
        <p className="text-xs text-muted-foreground">JPEG, PNG ou WebP, até 5 MB.</p>
        {fileError && (
          <p role="alert" className="text-sm font-medium text-destructive">
            {fileError}
          </p>
        )}
      </div>
      <AvatarCropDialog
        src={source}
        open={source !== null}
        onCancel={() => setSource(null)}
        onCropped={onCropped}
        busy={upload.isPending}
        progress={progress}
      />
    </Card>
  )
}
