import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'

/** Asks before removing a connection: a slip of the finger should not undo it. */
export function RemoveConnectionDialog({
  name,
  open,
  onOpenChange,
  onConfirm,
  pending,
}: {
  name: string
  open: boolean
  onOpenChange: (open: boolean) => void
  onConfirm: () => void
  pending: boolean
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Remover conexão"
      description={`Tem certeza de que deseja remover ${name} das suas conexões?`}
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancelar
          </Button>
          <Button variant="destructive" loading={pending} onClick={onConfirm}>
            Remover
          </Button>
        </>
      }
    />
  )
}
