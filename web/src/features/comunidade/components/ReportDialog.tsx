import { useId, useState } from 'react'
import { Button } from '@/components/ui/Button'
import { Dialog } from '@/components/ui/Dialog'
import { toast } from '@/components/ui/toast'
import { REPORT_CATEGORIES, failureMessage, useReport, type ReportCategory, type ReportTarget } from '../api'
import { messages } from '../messages'

const MAX_REASON = 1000

/**
 * 'Denunciar': a reason category and optional details (required for 'Outro motivo'), then POST /api/reports.
 * Reports of established members add up to hide the target for review.
 */
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
  const [category, setCategory] = useState<ReportCategory | ''>('')
  const [reason, setReason] = useState('')
  const [error, setError] = useState('')
  const fieldId = useId()
  const errorId = `${fieldId}-error`

  const close = (next: boolean) => {
    if (!next) {
      setCategory('')
      setReason('')
      setError('')
    }
    onOpenChange(next)
  }
  const submit = () => {
    const text = reason.trim()
    if (!category || (category === 'outro' && !text)) return setError(messages.reportReasonRequired)
    setError('')
    report.mutate(
      { target_type: targetType, target_id: targetId, category, reason: text },
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
      <div className="flex flex-col gap-3">
        <fieldset className="flex flex-col gap-1.5" aria-describedby={error ? errorId : undefined}>
          <legend className="mb-1 text-sm font-medium">Motivo da denúncia</legend>
          {REPORT_CATEGORIES.map((c) => (
            <label key={c.value} className="flex min-h-11 items-center gap-2 text-base">
              <input
                type="radio"
                name={`${fieldId}-category`}
                value={c.value}
                checked={category === c.value}
                onChange={() => setCategory(c.value)}
                className="size-4 accent-primary"
              />
              {c.label}
            </label>
          ))}
        </fieldset>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={fieldId} className="text-sm font-medium">
            {category === 'outro' ? 'Detalhes' : 'Detalhes (opcional)'}
          </label>
          <textarea
            id={fieldId}
            value={reason}
            maxLength={MAX_REASON}
            rows={3}
            onChange={(e) => setReason(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            className="rounded-lg border border-border bg-card p-3 text-base focus-visible:outline-2 focus-visible:outline-ring"
          />
        </div>
        {error && (
          <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        )}
      </div>
    </Dialog>
  )
}
