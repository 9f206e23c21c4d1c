import { useId, useState } from 'react'
import { Ban, Flag, Heart, MessageCircle, Pencil, Trash2 } from 'lucide-react'
import { Button } from '@/components/ui/Button'
import { toast } from '@/components/ui/toast'
import { cn } from '@/lib/cn'
import { MAX_POST_LENGTH, failureMessage, useDeletePost, usePostLike, useUpdatePost, type Post, type PostMedia } from '../api'
import { messages } from '../messages'
import { ActionMenu, type MenuAction } from './ActionMenu'
import { AuthorAvatar, AuthorName, TimeAndEdited, authorName } from './Author'
import { BlockUserDialog } from './BlockUserDialog'
import { ConfirmDialog } from './ConfirmDialog'
import { ReportDialog } from './ReportDialog'
import { SafeMarkdown } from './SafeMarkdown'

const GRID_MAX = 4

/** Up to four tiles (the fourth says how many more); a tile opens the post's media and comments. */
function ImageGrid({ media, owner, onOpen }: { media: PostMedia[]; owner: string; onOpen: (index: number) => void }) {
  if (media.length === 0) return null
  const shown = media.slice(0, GRID_MAX)
  const more = media.length - shown.length
  return (
    <div className={cn('grid gap-1 overflow-hidden rounded-xl', shown.length > 1 && 'grid-cols-2')}>
      {shown.map((m, i) => (
        <button
          key={m.id}
          type="button"
          onClick={() => onOpen(i)}
          className={cn(
            'relative overflow-hidden bg-muted focus-visible:outline-2 focus-visible:outline-ring',
            shown.length === 1 ? 'max-h-[32rem]' : 'aspect-square',
            shown.length === 3 && i === 0 && 'row-span-2 aspect-auto',
          )}
        >
          {m.media_type === 'image' ? (
            <img
              src={m.thumbnail_url || m.url}
              alt={`Imagem ${i + 1} de ${media.length} da publicação de ${owner}`}
              width={m.width ?? undefined}
              height={m.height ?? undefined}
              loading="lazy"
              className="h-full w-full object-cover"
            />
          ) : (
            <span className="flex h-full min-h-32 w-full items-center justify-center p-2 text-sm text-muted-foreground">{messages.unsupportedMedia}</span>
          )}
          {more > 0 && i === shown.length - 1 && (
            <span className="absolute inset-0 flex items-center justify-center bg-black/55 text-2xl font-semibold text-white">
              +{more}
              <span className="sr-only"> imagens</span>
            </span>
          )}
        </button>
      ))}
    </div>
  )
}

/**
 * One post in the feed: author, time ('editado' after an edit), the text in
 * the safe Markdown subset, the images, like and comments, and the menu
 * (the author's Editar / Excluir, everyone else's Denunciar / Bloquear usuário).
 */
export function PostCard({ post, onOpen, position, setSize }: { post: Post; onOpen: (mediaIndex?: number) => void; position?: number; setSize?: number }) {
  const name = authorName(post.author)
  const like = usePostLike(post.id)
  const update = useUpdatePost()
  const remove = useDeletePost()
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState('')
  const [editError, setEditError] = useState('')
  const [dialog, setDialog] = useState<'delete' | 'report' | 'block' | null>(null)
  const ids = { likes: useId(), comments: useId(), edit: useId(), editError: useId() }

  const actions: MenuAction[] = post.is_mine
    ? [
        {
          label: 'Editar',
          icon: Pencil,
          onSelect: () => {
            setDraft(post.content)
            setEditError('')
            setEditing(true)
          },
        },
        { label: 'Excluir', icon: Trash2, destructive: true, onSelect: () => setDialog('delete') },
      ]
    : [
        { label: 'Denunciar', icon: Flag, onSelect: () => setDialog('report') },
        ...(post.author ? [{ label: 'Bloquear usuário', icon: Ban, destructive: true, onSelect: () => setDialog('block') }] : []),
      ]

  const save = () => {
    const content = draft.trim()
    if (!content && post.media.length === 0) return setEditError(messages.emptyPost)
    // Nothing changed: leave edit mode without a request (and without 'editado').
    if (content === post.content.trim()) return setEditing(false)
    update.mutate(
      { id: post.id, content, media_ids: post.media.map((m) => m.id) },
      {
        onSuccess: () => {
          toast.success(messages.postUpdated)
          setEditing(false)
        },
        onError: (err) => setEditError(failureMessage(err, messages.editPostFailed)),
      },
    )
  }

  return (
    <article
      aria-label={`Publicação de ${name}`}
      aria-posinset={position}
      aria-setsize={setSize}
      className="flex flex-col gap-3 rounded-2xl border border-border bg-card p-4 text-card-foreground shadow-sm sm:p-5"
    >
      <header className="flex items-start gap-3">
        <AuthorAvatar author={post.author} className="h-11 w-11" />
        <div className="flex min-w-0 flex-1 flex-col">
          <AuthorName author={post.author} showTitle />
          <TimeAndEdited createdAt={post.created_at} edited={!!post.edited_at} />
        </div>
        <ActionMenu label="Mais opções da publicação" actions={actions} />
      </header>

      {editing ? (
        <div className="flex flex-col gap-2">
          <label htmlFor={ids.edit} className="text-sm font-medium">
            Editar publicação
          </label>
          <textarea
            id={ids.edit}
            value={draft}
            maxLength={MAX_POST_LENGTH}
            rows={4}
            onChange={(e) => setDraft(e.target.value)}
            aria-invalid={editError ? true : undefined}
            aria-describedby={editError ? ids.editError : undefined}
            className="rounded-lg border border-border bg-card p-3 text-base focus-visible:outline-2 focus-visible:outline-ring"
          />
          {editError && (
            <p id={ids.editError} role="alert" className="text-sm font-medium text-destructive">
              {editError}
            </p>
          )}
          <div className="flex justify-end gap-2">
            <Button variant="outline" size="sm" onClick={() => setEditing(false)}>
              Cancelar
            </Button>
            <Button size="sm" loading={update.isPending} onClick={save}>
              Salvar
            </Button>
          </div>
        </div>
      ) : (
        post.content && <SafeMarkdown source={post.content} />
      )}

      <ImageGrid media={post.media} owner={name} onOpen={(i) => onOpen(i)} />

      <footer className="flex items-center gap-1 border-t border-border pt-2">
        <Button
          variant="ghost"
          size="sm"
          aria-pressed={post.liked}
          aria-describedby={ids.likes}
          onClick={() => like.mutate(!post.liked)}
          className={cn(post.liked && 'text-rose-600 dark:text-rose-400')}
        >
          <Heart aria-hidden="true" className={cn('h-4 w-4', post.liked && 'fill-current')} />
          {/* The visible count is part of the name (WCAG 2.5.3: what is seen is what voice control says). */}
          <span className="sr-only">Curtir </span>
          <span className="tabular-nums">{post.likes}</span>
          <span id={ids.likes} className="sr-only">{`${post.likes} ${post.likes === 1 ? 'curtida' : 'curtidas'}`}</span>
        </Button>
        <Button variant="ghost" size="sm" aria-describedby={ids.comments} onClick={() => onOpen()}>
          <MessageCircle aria-hidden="true" className="h-4 w-4" />
          <span className="sr-only">Ver comentários </span>
          <span className="tabular-nums">{post.comments_count}</span>
          <span id={ids.comments} className="sr-only">{`${post.comments_count} ${post.comments_count === 1 ? 'comentário' : 'comentários'}`}</span>
        </Button>
      </footer>

      <ConfirmDialog
        open={dialog === 'delete'}
        onOpenChange={(open) => !open && setDialog(null)}
        title="Excluir publicação"
        description="Tem certeza de que deseja excluir esta publicação? Esta ação não pode ser desfeita."
        confirmLabel="Excluir"
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(post.id, {
            onSuccess: () => {
              setDialog(null)
              toast.success(messages.postDeleted)
            },
            onError: (err) => toast.error(failureMessage(err, messages.deletePostFailed)),
          })
        }
      />
      {dialog === 'report' && <ReportDialog open onOpenChange={(open) => !open && setDialog(null)} targetType="post" targetId={post.id} />}
      {dialog === 'block' && post.author && (
        <BlockUserDialog open onOpenChange={(open) => !open && setDialog(null)} userId={post.author.id} name={name} />
      )}
    </article>
  )
}
