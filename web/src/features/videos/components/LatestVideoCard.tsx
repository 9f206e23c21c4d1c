import { Link } from 'react-router'
import { Crown, PlayCircle } from 'lucide-react'
import { Badge } from '@/components/ui/Badge'
import { buttonClasses } from '@/components/ui/Button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/Card'
import { useLatestVideo } from '../api'
import { messages } from '../messages'

/** The home's exclusive-content card: the newest video, or the empty and error texts. */
export function LatestVideoCard() {
  const latest = useLatestVideo()
  const v = latest.data
  return (
    <Card role="region" aria-labelledby="latest-video-title" className="flex flex-col">
      <CardHeader>
        <div className="flex items-center gap-2">
          <PlayCircle aria-hidden="true" className="h-5 w-5 text-primary" />
          <CardTitle id="latest-video-title" className="text-base">
            {messages.homeTitle}
          </CardTitle>
        </div>
      </CardHeader>
      <CardContent className="flex flex-1 flex-col justify-between gap-4">
        {latest.isPending && <CardDescription>Carregando...</CardDescription>}
        {latest.isError && <CardDescription role="alert">{messages.homeFailed}</CardDescription>}
        {latest.isSuccess && !v && <CardDescription>{messages.homeEmpty}</CardDescription>}
        {v && (
          <>
            <div className="flex gap-3">
              {v.thumbnail && <img src={v.thumbnail} alt="" className="h-14 w-20 shrink-0 rounded-lg object-cover" />}
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <p className="font-semibold leading-tight">{v.title}</p>
                <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                  {v.duration && <span>{v.duration}</span>}
                  {v.category && <span>{v.category.name}</span>}
                  {v.locked && (
                    <Badge variant="warning">
                      <Crown aria-hidden="true" className="h-3 w-3" /> Premium
                    </Badge>
                  )}
                </p>
              </div>
            </div>
            {/* A label, not hidden text: the button's flex layout would put a space before the colon. */}
            <Link
              to={`/conteudos-exclusivos#${encodeURIComponent(v.id)}`}
              aria-label={`${messages.watch}: ${v.title}`}
              className={buttonClasses('primary', 'sm', 'self-start')}
            >
              {messages.watch}
            </Link>
          </>
        )}
      </CardContent>
    </Card>
  )
}
