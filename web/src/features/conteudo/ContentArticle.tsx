import { useEffect, useRef } from 'react'
import Markdown from 'react-markdown'
import { ExternalLink, Heart, ThumbsDown, ThumbsUp } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { Button } from '@/components/ui/Button'
import { ShareButton } from '@/components/ShareButton'
import { recordView, useEngagement, type ContentItem, type ContentType } from './api'
import { badges, coverURL, formatDate, readingTime } from './format'

function Reactions({ item }: { item: ContentItem }) {
  const { favorite, react } = useEngagement(item)
  const e = item.engagement
  return (
    <div className="flex flex-wrap items-center gap-2">
      <Button
        variant={e.reaction === 'like' ? 'secondary' : 'outline'}
        size="sm"
        aria-pressed={e.reaction === 'like'}
        onClick={() => react.mutate(e.reaction === 'like' ? '' : 'like')}
      >
        <ThumbsUp aria-hidden className="size-4" /> Gostei <span className="tabular-nums">{e.likes}</span>
      </Button>
      <Button
        variant={e.reaction === 'dislike' ? 'secondary' : 'outline'}
        size="sm"
        aria-pressed={e.reaction === 'dislike'}
        onClick={() => react.mutate(e.reaction === 'dislike' ? '' : 'dislike')}
      >
        <ThumbsDown aria-hidden className="size-4" /> Não gostei
      </Button>
      <Button variant={e.favorited ? 'secondary' : 'outline'} size="sm" aria-pressed={e.favorited} onClick={() => favorite.mutate(!e.favorited)}>
        <Heart aria-hidden className={e.favorited ? 'size-4 fill-current' : 'size-4'} /> {e.favorited ? 'Favorito' : 'Favoritar'}
      </Button>
      <ShareButton title={item.title} text={item.summary} />
    </div>
  )
}

/**
 * One item as readers see it: cover, title, date, reading time, the body's
 * Markdown (raw HTML in it is never rendered), its source link, and, outside
 * previews, reactions and sharing.
 */
export function ContentArticle({ type, item }: { type: ContentType; item: ContentItem }) {
  const cover = coverURL(type, item)
  const body = type.fields.find((f) => f.kind === 'long_text')
  const markdown = body ? item.fields?.[body.name] : undefined
  const sourceName = typeof item.fields?.source_name === 'string' ? item.fields.source_name : ''
  const sourceURL = typeof item.fields?.source_url === 'string' ? item.fields.source_url : ''
  const viewed = useRef(false)
  useEffect(() => {
    if (item.preview || viewed.current) return
    viewed.current = true
    recordView(item).catch(() => undefined)
  }, [item])
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-4">
      {cover && <img src={cover} alt="" className="aspect-[16/9] w-full rounded-2xl object-cover" />}
      <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        {badges(type, item).map((b) => (
          <Badge key={b}>{b}</Badge>
        ))}
        {item.published_at && <time dateTime={item.published_at}>{formatDate(item.published_at)}</time>}
        {readingTime(item) && <span className="whitespace-nowrap">· {readingTime(item)}</span>}
      </div>
      <h1 className="text-3xl font-bold leading-tight">{item.title}</h1>
      {item.summary && <p className="text-lg text-muted-foreground">{item.summary}</p>}
      {typeof markdown === 'string' && (
        <div className="prose-content flex flex-col gap-3 leading-relaxed [&_a]:text-primary [&_a]:underline [&_h2]:mt-4 [&_h2]:text-xl [&_h2]:font-semibold [&_h3]:font-semibold [&_ol]:list-decimal [&_ol]:pl-6 [&_ul]:list-disc [&_ul]:pl-6">
          <Markdown skipHtml>{markdown}</Markdown>
        </div>
      )}
      {sourceURL && /^https?:\/\//.test(sourceURL) && (
        <p className="text-sm">
          Fonte:{' '}
          <a href={sourceURL} target="_blank" rel="noopener noreferrer" className="inline-flex items-center gap-1 text-primary underline">
            {sourceName || sourceURL}
            <ExternalLink aria-hidden className="size-3" />
          </a>
        </p>
      )}
      {!item.preview && <Reactions item={item} />}
    </article>
  )
}
