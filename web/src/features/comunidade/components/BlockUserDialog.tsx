import { toast } from '@/components/ui/toast'
import { failureMessage, useBlockUser } from '../api'
import { messages } from '../messages'
import { ConfirmDialog } from './ConfirmDialog'

/** 'Bloquear usuário' after confirmation: their posts and comments disappear, and the connection ends. */
export function BlockUserDialog({
  open,
  onOpenChange,
  userId,
  name,
  onBlocked,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  userId: string
  name: string
  onBlocked?: () => void
}) {
  const block = useBlockUser()
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Bloquear usuário"
      description={`Tem certeza de que deseja bloquear ${name}? Vocês deixarão de ver as publicações e os comentários um do outro, e a conexão entre vocês será desfeita.`}
      confirmLabel="Bloquear"
      pending={block.isPending}
      onConfirm={() =>
        block.mutate(userId, {
          onSuccess: () => {
            toast.success(messages.blocked)
            onOpenChange(false)
            onBlocked?.()
          },
          onError: (err) => toast.error(failureMessage(err, messages.blockFailed)),
        })
      }
    />
  )
}
