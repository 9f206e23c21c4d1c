import { useState } from 'react'
import { Ban } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { toast } from '@/components/ui/toast'
import { failureMessage, useMyBlocks, useUnblockUser } from '../api'
import { messages } from '../messages'
import { BlockUserDialog } from './BlockUserDialog'

/** 'Bloquear' on someone else's public profile; once blocked (now or on an earlier visit), 'Desbloquear' undoes it. */
export function BlockUserButton({ userId, name }: { userId: string; name: string }) {
  const [confirming, setConfirming] = useState(false)
  // What this visit just did wins over the list until the list is read again.
  const [justChanged, setBlocked] = useState<boolean | null>(null)
  const blocks = useMyBlocks()
  const blocked = justChanged ?? blocks.data?.blocked.some((p) => p.id === userId) ?? false
  const unblock = useUnblockUser()
  if (blocked) {
    return (
      <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        <span>Você bloqueou {name}.</span>
        <Button
          variant="outline"
          size="sm"
          loading={unblock.isPending}
          onClick={() =>
            unblock.mutate(userId, {
              onSuccess: () => {
                toast.success(messages.unblocked)
                setBlocked(false)
              },
              onError: (err) => toast.error(failureMessage(err, messages.unblockFailed)),
            })
          }
        >
          Desbloquear
        </Button>
      </div>
    )
  }
  return (
    <>
      <Button variant="ghost" size="sm" className="self-start text-destructive" onClick={() => setConfirming(true)}>
        <Ban aria-hidden="true" className="h-4 w-4" />
        Bloquear
      </Button>
      <BlockUserDialog open={confirming} onOpenChange={setConfirming} userId={userId} name={name} onBlocked={() => setBlocked(true)} />
    </>
  )
}
