import { useId, useState } from 'react'
import { CheckCircle2, ThumbsDown, ThumbsUp } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { toast } from '@/components/ui/toast'
import { cn } from '@/lib/cn'
import { useAuth } from '@/lib/session/AuthProvider'
import { failureMessage, nextReaction, useAcceptAnswer, useCommentReaction, useDeleteComment, useUpdateComment, type Comment } from '../api'
import { messages } from '../messages'
import { AuthorAvatar, AuthorName, TimeAndEdited, authorName } from './Author'
import { CommentComposer, isSendKey } from './CommentComposer'
import { ConfirmDialog } from './ConfirmDialog'
import { ReportDialog } from './ReportDialog'

/** The post's accepted answer, and whether the reader (its author) may choose it. */
export interface Answer {
  acceptedId: string | null
  canAccept: boolean
}

const actionClass = 'rounded px-1.5 py-0.5 text-xs font-medium text-muted-foreground hover:bg-muted hover:text-foreground'

/**
 * One comment: author ('Usuário VetClube' when gone), time and 'editado', the
 * text (plain text: React escapes it), like and dislike (mutually exclusive),
 * 'Responder' on top-level comments only, the author's Editar / Excluir and
 * everyone else's Denunciar; the accepted answer's mark, and for the post's
 * author 'Marcar como resposta' on colleagues' comments; then its replies,
 * oldest first.
 */
export function CommentItem({ comment, postId, answer, isReply = false }: { comment: Comment; postId: string; answer?: Answer; isReply?: boolean }) {
  const { user } = useAuth()
  const reaction = useCommentReaction(postId, comment.id)
  const update = useUpdateComment(postId)
  const remove = useDeleteComment(postId)
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState('')
  const [editError, setEditError] = useState('')
  const [replying, setReplying] = useState(false)
  const [dialog, setDialog] = useState<'delete' | 'report' | null>(null)
  const editId = useId()
  const name = authorName(comment.author)
  const accept = useAcceptAnswer(postId)
  const accepted = !!answer && answer.acceptedId === comment.id
  const mayAccept = !!answer?.canAccept && !comment.is_mine && !!comment.author

  const react = (pressed: 'like' | 'dislike') => {
    if (!user) return void toast.error(pressed === 'like' ? messages.loginToLike : messages.loginToDislike)
    reaction.mutate({ reaction: nextReaction(comment, pressed), pressed })
  }

  const startEdit = () => {
    if (!user) return void toast.error(messages.loginToEdit)
    setDraft(comment.content)
    setEditError('')
    setEditing(true)
  }

  const save = () => {
    if (update.isPending) return
    const content = draft.trim()
    if (!content) return setEditError(messages.emptyComment)
    // Save only when the text changed.
    if (content === comment.content.trim()) return setEditing(false)
    update.mutate(
      { id: comment.id, content },
      {
        onSuccess: () => setEditing(false),
        onError: (err) => toast.error(failureMessage(err, messages.editCommentFailed)),
      },
    )
  }

  const askDelete = () => {
    if (!user) return void toast.error(messages.loginToDelete)
    setDialog('delete')
  }

  return (
    <article aria-label={`Comentário de ${name}`} className="flex gap-2.5">
      <AuthorAvatar author={comment.author} className={isReply ? 'h-7 w-7 text-xs' : 'h-9 w-9'} />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <div className="flex flex-wrap items-baseline gap-x-2 text-sm">
          <AuthorName author={comment.author} />
          <TimeAndEdited createdAt={comment.created_at} edited={comment.is_edited} />
          {accepted && (
            <span className="inline-flex items-center gap-1 rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800 dark:bg-green-950 dark:text-green-200">
              <CheckCircle2 aria-hidden="true" className="h-3.5 w-3.5" />
              Resposta aceita
            </span>
          )}
        </div>

        {editing ? (
          <div className="flex flex-col gap-1.5">
            <label htmlFor={editId} className="sr-only">
              Editar comentário
            </label>
            <textarea
              id={editId}
              value={draft}
              rows={2}
              autoFocus
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (isSendKey(e)) {
                  e.preventDefault()
                  save()
                } else if (e.key === 'Escape') {
                  e.preventDefault()
                  e.stopPropagation()
                  setEditing(false)
                }
              }}
              aria-invalid={editError ? true : undefined}
              className="rounded-lg border border-border bg-card px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-ring"
            />
            {editError && (
              <p role="alert" className="text-xs font-medium text-destructive">
                {editError}
              </p>
            )}
            <div className="flex gap-2">
              <Button size="sm" loading={update.isPending} onClick={save}>
                Salvar
              </Button>
              <Button size="sm" variant="ghost" onClick={() => setEditing(false)}>
                Cancelar
              </Button>
            </div>
          </div>
        ) : (
          <p className="whitespace-pre-wrap break-words text-sm">{comment.content}</p>
        )}

        <div className="flex flex-wrap items-center gap-1">
          <button
            type="button"
            aria-pressed={comment.is_liked}
            onClick={() => react('like')}
            className={cn(actionClass, 'inline-flex items-center gap-1', comment.is_liked && 'text-primary')}
          >
            <ThumbsUp aria-hidden="true" className={cn('h-3.5 w-3.5', comment.is_liked && 'fill-current')} />
            {/* The visible count is part of the name (WCAG 2.5.3). */}
            <span className="sr-only">Curtir comentário </span>
            <span className="tabular-nums" data-testid="likes">
              {comment.likes}
            </span>
          </button>
          <button
            type="button"
            aria-pressed={comment.is_disliked}
            onClick={() => react('dislike')}
            className={cn(actionClass, 'inline-flex items-center gap-1', comment.is_disliked && 'text-destructive')}
          >
            <ThumbsDown aria-hidden="true" className={cn('h-3.5 w-3.5', comment.is_disliked && 'fill-current')} />
            <span className="sr-only">Não curtir comentário </span>
            <span className="tabular-nums" data-testid="dislikes">
              {comment.dislikes}
            </span>
          </button>
          {!isReply && (
            <button
              type="button"
              className={actionClass}
              aria-expanded={replying}
              onClick={() => (user ? setReplying((r) => !r) : toast.error(messages.loginToComment))}
            >
              Responder
            </button>
          )}
          {comment.is_mine && !editing && (
            <>
              <button type="button" className={actionClass} onClick={startEdit}>
                Editar
              </button>
              <button type="button" className={actionClass} onClick={askDelete}>
                Excluir
              </button>
            </>
          )}
          {mayAccept && (
            <button
              type="button"
              className={actionClass}
              aria-pressed={accepted}
              disabled={accept.isPending}
              onClick={() => accept.mutate(accepted ? null : comment.id)}
            >
              {accepted ? 'Desmarcar resposta' : 'Marcar como resposta'}
            </button>
          )}
          {!comment.is_mine && (
            <button type="button" className={actionClass} onClick={() => setDialog('report')}>
              Denunciar
            </button>
          )}
        </div>

        {replying && (
          <CommentComposer
            postId={postId}
            parentId={comment.id}
            label={`Responder a ${name}`}
            placeholder={`Responder a ${name}...`}
            sendLabel="Enviar resposta"
            autoFocus
            onDone={() => setReplying(false)}
            onCancel={() => setReplying(false)}
          />
        )}

        {comment.replies.length > 0 && (
          <ul aria-label={`Respostas a ${name}`} className="mt-1 flex flex-col gap-3 border-l-2 border-border pl-3">
            {comment.replies.map((r) => (
              <li key={r.id}>
                <CommentItem comment={r} postId={postId} answer={answer} isReply />
              </li>
            ))}
          </ul>
        )}
      </div>

      <ConfirmDialog
        open={dialog === 'delete'}
        onOpenChange={(open) => !open && setDialog(null)}
        title={messages.deleteCommentTitle}
        description={
          !isReply && comment.replies.length > 0
            ? 'Tem certeza de que deseja excluir este comentário? As respostas a ele também serão excluídas.'
            : 'Tem certeza de que deseja excluir este comentário? Esta ação não pode ser desfeita.'
        }
        confirmLabel="Excluir"
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(comment.id, {
            onSuccess: () => toast.success(messages.commentDeleted),
            onError: (err) => toast.error(failureMessage(err, messages.deleteCommentFailed)),
            onSettled: () => setDialog(null),
          })
        }
      />
      {dialog === 'report' && <ReportDialog open onOpenChange={(open) => !open && setDialog(null)} targetType="comment" targetId={comment.id} />}
    </article>
  )
}
