import { useId, useRef, useState, type KeyboardEvent } from 'react'
import { Link } from 'react-router'
import { cn } from '@/lib/cn'
import { usePageTitle } from '@/lib/usePageTitle'
import type { FeedTab } from '../api'
import { CommentsModal } from '../components/CommentsModal'
import { ConnectionsCard } from '../components/ConnectionsCard'
import { FeedList } from '../components/FeedList'
import { PostComposer } from '../components/PostComposer'
import { useCommentsModalRoute } from '../useCommentsModalRoute'

const TABS: Array<{ id: FeedTab; label: string }> = [
  { id: 'todos', label: 'Todos' },
  { id: 'conexoes', label: 'Minhas conexões' },
]

/** /community: the composer, the feed ('Todos' / 'Minhas conexões'), suggestions, and the comments modal (?post=). */
export default function CommunityPage() {
  usePageTitle('Comunidade')
  const [tab, setTab] = useState<FeedTab>('todos')
  const modal = useCommentsModalRoute()
  const baseId = useId()
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([])
  const tabId = (t: FeedTab) => `${baseId}-tab-${t}`
  const panelId = `${baseId}-panel`

  // Arrow keys move between the tabs (WAI-ARIA tabs, automatic activation).
  const onTabKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const at = TABS.findIndex((t) => t.id === tab)
    let next = at
    if (e.key === 'ArrowRight') next = (at + 1) % TABS.length
    else if (e.key === 'ArrowLeft') next = (at - 1 + TABS.length) % TABS.length
    else if (e.key === 'Home') next = 0
    else if (e.key === 'End') next = TABS.length - 1
    else return
    e.preventDefault()
    setTab(TABS[next]!.id)
    tabRefs.current[next]?.focus()
  }

  return (
    <div className="mx-auto grid w-full max-w-6xl grid-cols-[minmax(0,1fr)] gap-6 py-4 lg:grid-cols-[minmax(0,1fr)_300px]">
      <div className="flex min-w-0 flex-col gap-5">
        <h1 className="text-2xl font-bold tracking-tight">Comunidade</h1>
        <PostComposer />
        <div role="tablist" aria-label="Publicações" onKeyDown={onTabKey} className="flex gap-1 rounded-xl bg-muted p-1">
          {TABS.map((t, i) => (
            <button
              key={t.id}
              ref={(el) => {
                tabRefs.current[i] = el
              }}
              id={tabId(t.id)}
              type="button"
              role="tab"
              aria-selected={tab === t.id}
              aria-controls={panelId}
              tabIndex={tab === t.id ? 0 : -1}
              onClick={() => setTab(t.id)}
              className={cn(
                'flex-1 rounded-lg px-3 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-ring',
                tab === t.id ? 'bg-card text-foreground shadow-sm' : 'text-muted-foreground hover:text-foreground',
              )}
            >
              {t.label}
            </button>
          ))}
        </div>
        <div id={panelId} role="tabpanel" aria-labelledby={tabId(tab)}>
          <FeedList
            key={tab}
            filter={{ tab }}
            onOpen={modal.open}
            empty={
              tab === 'todos' ? (
                <p>Nenhuma publicação ainda. Seja o primeiro a compartilhar algo com a comunidade!</p>
              ) : (
                <p>
                  Suas conexões ainda não publicaram nada.{' '}
                  <Link to="/connections" className="font-medium text-primary underline-offset-4 hover:underline">
                    Encontrar conexões
                  </Link>
                </p>
              )
            }
          />
        </div>
      </div>
      <aside aria-label="Conexões" className="flex min-w-0 flex-col gap-4 lg:sticky lg:top-20 lg:self-start">
        <ConnectionsCard />
      </aside>
      {modal.postId && <CommentsModal key={modal.postId} postId={modal.postId} initialMediaIndex={modal.mediaIndex} onClose={modal.close} />}
    </div>
  )
}
