import { useId, useState } from 'react'
import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { toast } from '@/components/ui/toast'
import { failureMessage, useReport, type ReportTarget } from '../api'
import { messages } from '../messages'

const MAX_REASON = 1000

/** 'Denunciar': a reason, then POST /api/reports. Three distinct reports hide the target for review. */
export function ReportDialog({
  open,
  onOpenChange,
  targetType,
  targetId,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  targetType: ReportTarget
  targetId: string
}) {
  const report = useReport()
  const [reason, setReason] = useState('')
  const [error, setError] = useState('')
  const fieldId = useId()
  const errorId = `${fieldId}-error`

  const close = (next: boolean) => {
    if (!next) {
      setReason('')
      setError('')
    }
    onOpenChange(next)
  }
  const submit = () => {
    const text = reason.trim()
    if (!text) return setError(messages.reportReasonRequired)
    setError('')
    report.mutate(
      { target_type: targetType, target_id: targetId, reason: text },
      {
        onSuccess: () => {
          toast.success(messages.reportSent)
          close(false)
        },
        onError: (err) => setError(failureMessage(err, messages.reportFailed)),
      },
    )
  }
  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title={targetType === 'post' ? 'Denunciar publicação' : 'Denunciar comentário'}
      description="Conte o que há de errado. A equipe de moderação vai analisar."
      footer={
        <>
          <Button variant="outline" onClick={() => close(false)}>
            Cancelar
          </Button>
          <Button variant="destructive" loading={report.isPending} onClick={submit}>
            Enviar denúncia
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-1.5">
        <label htmlFor={fieldId} className="text-sm font-medium">
          Motivo da denúncia
        </label>
        <textarea
          id={fieldId}
          value={reason}
          maxLength={MAX_REASON}
          rows={4}
          onChange={(e) => setReason(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          placeholder="Ex.: spam, informação falsa, ofensa"
          className="rounded-lg border border-border bg-card p-3 text-base focus-visible:outline-2 focus-visible:outline-ring"
        />
        {error && (
          <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  )
}
