import { useState, type FormEvent } from 'react'
import { Button } from '@/components/ui/Button'
import { Input } from '@/components/ui/Input'
import { toast } from '@/components/ui/toast'
import { ApiError } from '@/lib/api'
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey, type Passkey } from './api'
import { ceremonyErrorMessage, passkeysSupported } from './webauthn'

function messageOf(err: unknown) {
  return err instanceof ApiError ? err.message : ceremonyErrorMessage(err)
}

function when(iso: string | null) {
  return iso ? new Date(iso).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'short' }) : 'nunca'
}

/** Segurança → Passkeys: add (named), list, rename and remove. */
export function PasskeysSection() {
  const list = usePasskeys()
  const add = useAddPasskey()
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const supported = passkeysSupported()

  async function onAdd(e: FormEvent) {
    e.preventDefault()
    setError(null)
    try {
      const res = await add.mutateAsync(name.trim() || 'Minha passkey')
      toast.success(res.message)
      setName('')
    } catch (err) {
      setError(messageOf(err))
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm">
        Entre sem senha com a biometria ou o PIN do seu celular ou computador. A passkey também vale como verificação em duas etapas.
      </p>
      {list.isPending && <p className="text-sm text-muted-foreground">Carregando...</p>}
      {list.isError && <p role="alert" className="text-sm text-destructive">{messageOf(list.error)}</p>}
      {list.data && list.data.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Suas passkeys">
          {list.data.map((p) => (
            <PasskeyRow key={p.id} passkey={p} />
          ))}
        </ul>
      )}
      {list.data && list.data.length === 0 && <p className="text-sm text-muted-foreground">Nenhuma passkey cadastrada.</p>}
      {!supported && <p className="text-sm text-muted-foreground">Este navegador não oferece passkeys.</p>}
      {supported && (
        <form onSubmit={onAdd} className="flex flex-col gap-3 sm:flex-row sm:items-end" aria-label="Adicionar passkey">
          <div className="sm:flex-1">
            <Input label="Nome da passkey" name="passkey_name" maxLength={60} placeholder="Ex.: Celular da clínica" value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <Button type="submit" variant="outline" loading={add.isPending}>
            Adicionar passkey
          </Button>
        </form>
      )}
      {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
    </div>
  )
}

function PasskeyRow({ passkey }: { passkey: Passkey }) {
  const rename = useRenamePasskey()
  const remove = useRemovePasskey()
  const [editing, setEditing] = useState(false)
  const [name, setName] = useState(passkey.name)
  const [error, setError] = useState<string | null>(null)

  async function onRename(e: FormEvent) {
    e.preventDefault()
    setError(null)
    try {
      await rename.mutateAsync({ id: passkey.id, name })
      setEditing(false)
    } catch (err) {
      setError(messageOf(err))
    }
  }

  async function onRemove() {
    if (!window.confirm(`Remover a passkey "${passkey.name}"?`)) return
    try {
      toast.success((await remove.mutateAsync(passkey.id)).message)
    } catch (err) {
      setError(messageOf(err))
    }
  }

  return (
    <li className="rounded-md border border-border p-3">
      {editing ? (
        <form onSubmit={onRename} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="sm:flex-1">
            <Input label="Novo nome" name="passkey_rename" maxLength={60} value={name} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="flex gap-2">
            <Button type="submit" size="sm" loading={rename.isPending}>
              Salvar
            </Button>
            <Button type="button" size="sm" variant="ghost" onClick={() => setEditing(false)}>
              Cancelar
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="min-w-0">
            <p className="break-words font-medium">{passkey.name}</p>
            <p className="text-xs text-muted-foreground">
              Criada em {when(passkey.created_at)} · último uso: {when(passkey.last_used_at)}
            </p>
          </div>
          <div className="flex gap-2">
            <Button size="sm" variant="ghost" onClick={() => setEditing(true)} aria-label={`Renomear ${passkey.name}`}>
              Renomear
            </Button>
            <Button size="sm" variant="outline" onClick={onRemove} loading={remove.isPending} aria-label={`Remover ${passkey.name}`}>
              Remover
            </Button>
          </div>
        </div>
      )}
      {error && <p role="alert" className="mt-2 text-sm text-destructive">{error}</p>}
    </li>
  )
}
