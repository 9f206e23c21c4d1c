import { useId, useState, type KeyboardEvent } from 'react'
import { Link, useLocation } from 'react-router'
import { Send } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { toast } from '@/components/ui/toast'
import { useAuth } from '@/lib/session/AuthProvider'
import { failureMessage, useCreateComment } from '../api'
import { useDraftKey } from '../idempotency'
import { messages } from '../messages'

/** Enter sends; Shift+Enter (or Enter while an input method is composing) stays in the text. */
export function isSendKey(e: Pick<KeyboardEvent, 'key' | 'shiftKey'> & { nativeEvent?: { isComposing?: boolean } }): boolean {
  return e.key === 'Enter' && !e.shiftKey && !e.nativeEvent?.isComposing
}

/**
 * Writes a comment, or a reply when `parentId` is set. Enter sends,
 * Shift+Enter inserts a newline, and the send button stays disabled while the
 * text is blank or a send is on its way. One idempotency key per
 * text, so a retry after an error never comments twice.
 */
export function CommentComposer({
  postId,
  parentId,
  label,
  placeholder,
  sendLabel,
  autoFocus,
  onDone,
  onCancel,
}: {
  postId: string
  parentId?: string
  label: string
  placeholder: string
  sendLabel: string
  autoFocus?: boolean
  onDone?: () => void
  onCancel?: () => void
}) {
  const { user } = useAuth()
  const location = useLocation()
  const create = useCreateComment(postId)
  const draftKey = useDraftKey()
  const [text, setText] = useState('')
  const [error, setError] = useState('')
  const fieldId = useId()
  const errorId = `${fieldId}-error`

  if (!user) {
    const back = encodeURIComponent(location.pathname + location.search)
    return (
      <p className="text-sm text-muted-foreground">
        <Link to={`/login?redirect=${back}`} className="font-medium text-primary underline-offset-4 hover:underline">
          {messages.composerLogin}
        </Link>
      </p>
    )
  }

  const send = () => {
    if (create.isPending) return
    const content = text.trim()
    if (!content) return setError(messages.emptyComment)
    setError('')
    create.mutate(
      { content, parentId, idempotencyKey: draftKey.keyFor(content) },
      {
        onSuccess: () => {
          draftKey.reset()
          setText('')
          onDone?.()
        },
        onError: (err) => toast.error(failureMessage(err, messages.createCommentFailed)),
      },
    )
  }

  return (
    <form
      className="flex flex-col gap-1.5"
      onSubmit={(e) => {
        e.preventDefault()
        send()
      }}
    >
      <label htmlFor={fieldId} className="sr-only">
        {label}
      </label>
      <div className="flex items-end gap-2">
        <textarea
          id={fieldId}
          value={text}
          rows={1}
          autoFocus={autoFocus}
          placeholder={placeholder}
          onChange={(e) => {
            setText(e.target.value)
            if (error) setError('')
          }}
          onKeyDown={(e) => {
            if (isSendKey(e)) {
              e.preventDefault()
              send()
            } else if (e.key === 'Escape' && onCancel) {
              // Escape leaves the reply, not the whole comments dialog.
              e.preventDefault()
              e.stopPropagation()
              onCancel()
            }
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          className="max-h-40 min-h-10 flex-1 resize-none rounded-lg border border-border bg-card px-3 py-2 text-base placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-ring [field-sizing:content]"
        />
        {onCancel && (
          <Button variant="ghost" size="sm" onClick={onCancel}>
            Cancelar
          </Button>
        )}
        <Button type="submit" size="icon" aria-label={sendLabel} disabled={!text.trim() || create.isPending} loading={create.isPending}>
          {!create.isPending && <Send aria-hidden="true" className="h-4 w-4" />}
        </Button>
      </div>
      {error && (
        <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </form>
  )
}
