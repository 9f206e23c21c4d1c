import { useEffect, useState } from 'react'
import { Card, CardContent, Link, List, ListItem, ListItemText, Stack, Typography } from '@mui/material'
import { Link as RouterLink } from 'react-router-dom'
import { useTranslate } from 'react-admin'
import { workQueue, type QueueItem, type WorkQueue } from '../content/api'
import { formatSaoPaulo } from '../content/time'
import { resourceName } from '../content/types'

function QueueCard({ title, empty, items, testId, detail }: {
  title: string
  empty: string
  items: QueueItem[]
  testId: string
  detail: (i: QueueItem) => string
}) {
  const translate = useTranslate()
  const headingId = `${testId}-title`
  return (
    <Card sx={{ flex: '1 1 20rem' }} data-testid={testId} component="section" aria-labelledby={headingId}>
      <CardContent>
        <Typography id={headingId} variant="h6" component="h2" gutterBottom>
          {translate(title)} ({items.length})
        </Typography>
        {items.length === 0 ? (
          <Typography color="text.secondary">{translate(empty)}</Typography>
        ) : (
          <List dense disablePadding>
            {items.map((i) => (
              <ListItem key={i.id} disableGutters>
                <ListItemText
                  primary={
                    <Link component={RouterLink} to={`/${resourceName(i.type)}/${i.id}`}>
                      {i.title}
                    </Link>
                  }
                  secondary={detail(i)}
                  slotProps={{ secondary: { sx: { whiteSpace: 'pre-wrap' } } }}
                />
              </ListItem>
            ))}
          </List>
        )}
      </CardContent>
    </Card>
  )
}

/**
 * The dashboard's work queues: 'Aguardando minha revisão' (reviewers),
 * 'Alterações solicitadas a mim' with the reviewer's comment, 'Agendados'.
 */
export function WorkQueues({ reviewer }: { reviewer: boolean }) {
  const translate = useTranslate()
  const [queue, setQueue] = useState<WorkQueue | null>(null)
  const [failed, setFailed] = useState(false)
  useEffect(() => {
    workQueue()
      .then(setQueue)
      .catch(() => setFailed(true))
  }, [])
  if (failed) return <Typography color="error">{translate('vetclube.queue.load_error')}</Typography>
  if (!queue) return null
  const updated = (i: QueueItem) => translate('vetclube.queue.since', { when: formatSaoPaulo(i.updated_at) })
  return (
    <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap" sx={{ mb: 2 }}>
      {reviewer && (
        <QueueCard
          title="vetclube.queue.awaiting_my_review"
          empty="vetclube.queue.none_awaiting"
          items={queue.awaiting_my_review}
          testId="queue-review"
          detail={updated}
        />
      )}
      <QueueCard
        title="vetclube.queue.changes_requested"
        empty="vetclube.queue.none_changes"
        items={queue.changes_requested}
        testId="queue-changes"
        detail={(i) => i.reason ?? ''}
      />
      <QueueCard
        title="vetclube.queue.scheduled"
        empty="vetclube.queue.none_scheduled"
        items={queue.scheduled}
        testId="queue-scheduled"
        detail={(i) => (i.publish_at ? translate('vetclube.queue.publishes', { when: formatSaoPaulo(i.publish_at) }) : i.status_label)}
      />
    </Stack>
  )
}
