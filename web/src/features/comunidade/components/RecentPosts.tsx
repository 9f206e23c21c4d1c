import { Link } from 'react-router'
import { Heart, MessageCircle } from 'lucide-react'
import { Spinner } from '@/components/ui/Spinner'
import { useFeed } from '../api'
import { messages } from '../messages'
import { TimeAndEdited } from './Author'
import { SafeMarkdown } from './SafeMarkdown'

export const RECENT_POSTS_LIMIT = 5

/** A person's latest posts on their public profile; each opens its comments on /community. */
export function RecentPosts({ userId }: { userId: string }) {
  const feed = useFeed({ tab: 'todos', author: userId, limit: RECENT_POSTS_LIMIT }, userId !== '')
  const posts = feed.data?.pages[0]?.items ?? []
  return (
    <section aria-labelledby="profile-recent-posts" className="flex flex-col gap-3">
      <h2 id="profile-recent-posts" className="text-sm font-semibold uppercase tracking-wide text-muted-foreground">
        Publicações recentes
      </h2>
      {feed.isPending ? (
        <Spinner label="Carregando publicações..." />
      ) : feed.isError ? (
        <p role="alert" className="text-sm">
          {messages.loadFeedFailed}
        </p>
      ) : posts.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nenhuma publicação ainda.</p>
      ) : (
        <ul aria-label="Publicações recentes" className="flex flex-col gap-3">
          {posts.map((p) => (
            <li key={p.id} className="flex flex-col gap-1.5 rounded-xl border border-border p-3">
              <TimeAndEdited createdAt={p.created_at} edited={!!p.edited_at} />
              {p.content ? (
                <SafeMarkdown source={p.content} className="line-clamp-3 text-sm" />
              ) : (
                <p className="text-sm text-muted-foreground">{p.media.length === 1 ? '1 imagem' : `${p.media.length} imagens`}</p>
              )}
              <div className="flex items-center gap-4 text-xs text-muted-foreground">
                <span className="inline-flex items-center gap-1">
                  <Heart aria-hidden="true" className="h-3.5 w-3.5" />
                  {p.likes === 1 ? '1 curtida' : `${p.likes} curtidas`}
                </span>
                <span className="inline-flex items-center gap-1">
                  <MessageCircle aria-hidden="true" className="h-3.5 w-3.5" />
                  {p.comments_count === 1 ? '1 comentário' : `${p.comments_count} comentários`}
                </span>
                <Link to={`/community?post=${encodeURIComponent(p.id)}`} className="ml-auto font-medium text-primary underline-offset-4 hover:underline">
                  Ver publicação
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
