import { useEffect, useId, useRef } from 'react'
import { X } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { Spinner } from '@/components/ui/Spinner'
import { DialogToastAnnouncer, raiseToaster } from '@/components/ui/Toaster'
import { ApiError } from '@/lib/api'
import { useComments, usePost } from '../api'
import { messages } from '../messages'
import { AuthorAvatar, AuthorName, TimeAndEdited, authorName } from './Author'
import { CommentComposer } from './CommentComposer'
import { CommentItem, type Answer } from './CommentItem'
import { MediaCarousel } from './MediaCarousel'
import { SafeMarkdown } from './SafeMarkdown'

/** The thread; the post's author may mark one colleague's comment as the accepted answer. */
function CommentsList({ postId, answer }: { postId: string; answer: Answer }) {
  const comments = useComments(postId)
  if (comments.isPending) {
    return (
      <div className="flex justify-center py-6">
        <Spinner label="Carregando comentários..." />
      </div>
    )
  }
  if (comments.isError) {
    return (
      <div className="flex flex-col items-center gap-2 py-6 text-center">
        <p role="alert" className="text-sm font-medium">
          {messages.loadCommentsFailed}
        </p>
        <Button variant="outline" size="sm" onClick={() => void comments.refetch()}>
          Tentar novamente
        </Button>
      </div>
    )
  }
  if (comments.data.items.length === 0) {
    return <p className="py-6 text-center text-sm text-muted-foreground">Nenhum comentário ainda. Seja o primeiro a comentar!</p>
  }
  return (
    <ul aria-label="Lista de comentários" className="flex flex-col gap-4">
      {comments.data.items.map((c) => (
        <li key={c.id}>
          <CommentItem comment={c} postId={postId} answer={answer} />
        </li>
      ))}
    </ul>
  )
}

/**
 * The comments modal: on desktop the post's media carousel
 * beside a 420 px comments panel; below 768 px a bottom sheet with the panel
 * only. A native modal <dialog>: focus stays inside, Escape closes, the page
 * behind is inert, focus returns on close. `onClose` owns leaving (the
 * ?post= link), so the dialog never closes itself.
 */
export function CommentsModal({ postId, initialMediaIndex, onClose }: { postId: string; initialMediaIndex?: number; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const post = usePost(postId)

  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) {
      dialog.showModal?.()
      raiseToaster()
    }
  }, [])

  const notFound = post.error instanceof ApiError && post.error.status === 404
  const owner = authorName(post.data?.author ?? null)
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-modal="true"
      // React passes a nested dialog's close (the delete confirmation) up the tree: only this one's counts.
      onClose={(e) => e.target === e.currentTarget && onClose()}
      onClick={(e) => e.target === ref.current && onClose()}
      className="mx-0 mb-0 mt-auto h-[85dvh] max-h-[85dvh] w-full max-w-full overflow-hidden rounded-t-2xl border border-border bg-card p-0 text-card-foreground shadow-xl backdrop:bg-black/60 md:m-auto md:h-[min(90dvh,760px)] md:max-h-[90dvh] md:w-[min(calc(100%-2rem),1180px)] md:rounded-2xl"
    >
      <div className="flex h-full min-h-0 flex-col md:flex-row">
        <div className="hidden min-h-0 min-w-0 flex-1 bg-neutral-950 md:flex" data-testid="comments-media">
          {post.data && <MediaCarousel media={post.data.media} initialIndex={initialMediaIndex} owner={owner} />}
        </div>
        <section className="flex min-h-0 w-full flex-1 flex-col md:w-[420px] md:flex-none md:border-l md:border-border">
          <header className="flex items-center justify-between gap-2 border-b border-border px-4 py-3">
            <span aria-hidden="true" className="absolute left-1/2 top-1.5 h-1 w-10 -translate-x-1/2 rounded-full bg-muted md:hidden" />
            <h2 id={titleId} className="text-lg font-semibold">
              Comentários
            </h2>
            <button type="button" onClick={onClose} aria-label="Fechar" className="rounded-md p-1 text-muted-foreground hover:bg-muted">
              <X aria-hidden="true" className="h-5 w-5" />
            </button>
          </header>
          <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto overscroll-contain px-4 py-3">
            {post.isPending ? (
              <Spinner label="Carregando publicação..." />
            ) : post.isError && !post.data ? (
              <p role="alert" className="py-6 text-center text-sm font-medium">
                {notFound ? messages.postNotFound : messages.loadPostFailed}
              </p>
            ) : (
              <>
                <div className="flex flex-col gap-2 border-b border-border pb-3">
                  <div className="flex items-center gap-2.5">
                    <AuthorAvatar author={post.data.author} />
                    <div className="flex min-w-0 flex-col text-sm">
                      <AuthorName author={post.data.author} />
                      <TimeAndEdited createdAt={post.data.created_at} edited={!!post.data.edited_at} />
                    </div>
                  </div>
                  {post.data.content && <SafeMarkdown source={post.data.content} className="text-sm" />}
                </div>
                <CommentsList postId={postId} answer={{ acceptedId: post.data?.accepted_comment_id ?? null, canAccept: !!post.data?.is_mine }} />
              </>
            )}
          </div>
          {!notFound && (
            <div className="border-t border-border px-4 py-3">
              <CommentComposer postId={postId} label="Escreva um comentário" placeholder="Escreva um comentário..." sendLabel="Enviar comentário" />
            </div>
          )}
        </section>
      </div>
      <DialogToastAnnouncer />
    </dialog>
  )
}
