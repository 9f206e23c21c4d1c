import { Link } from 'react-router'
import { BadgeCheck, UserRound } from 'lucide-react'
import { Avatar } from '@/components/ui/Avatar'
import { cn } from '@/lib/cn'
import { displayName } from '@/lib/names'
import { relativeTime } from '@/features/notificacoes'
import type { Author } from '../api'
import { messages } from '../messages'

/** The author's name, or 'Usuário VetClube' when the account is gone. */
export function authorName(author: Author | null): string {
  return author ? displayName(author) : messages.fallbackAuthor
}

/** Photo, else initials; a placeholder figure when there is no author. */
export function AuthorAvatar({ author, className }: { author: Author | null; className?: string }) {
  if (!author) {
    return (
      <span
        data-testid="placeholder-avatar"
        className={cn('inline-flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-muted text-muted-foreground', className)}
      >
        <UserRound aria-hidden="true" className="h-1/2 w-1/2" />
      </span>
    )
  }
  return <Avatar src={author.avatar_url || null} name={displayName(author)} className={className} />
}

/** Name (to the public profile), verified mark, and optionally the title. */
export function AuthorName({ author, showTitle = false }: { author: Author | null; showTitle?: boolean }) {
  const name = authorName(author)
  return (
    <span className="flex min-w-0 flex-col">
      {author ? (
        <Link to={`/profile/${author.id}`} className="inline-flex max-w-full items-center gap-1 font-semibold text-foreground underline-offset-4 hover:underline">
          <span className="truncate">{name}</span>
          {author.verified && <BadgeCheck role="img" aria-label="Verificado" className="h-4 w-4 shrink-0 text-primary" />}
        </Link>
      ) : (
        <span className="font-semibold">{name}</span>
      )}
      {showTitle && author?.title && <span className="truncate text-xs text-muted-foreground">{author.title}</span>}
    </span>
  )
}

const fullDate = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'long', timeStyle: 'short' })

/** 'há 5 minutos', with the full date on hover, and 'editado' when it changed. */
export function TimeAndEdited({ createdAt, edited }: { createdAt: string; edited: boolean }) {
  const date = new Date(createdAt)
  return (
    <span className="text-xs text-muted-foreground">
      <time dateTime={createdAt} title={Number.isNaN(date.getTime()) ? undefined : fullDate.format(date)}>
        {relativeTime(createdAt)}
      </time>
      {edited && <span> · editado</span>}
    </span>
  )
}
