import { useEffect, useState } from 'react'
import { Card, CardContent, Link, Typography } from '@mui/material'
import { Link as RouterLink } from 'react-router-dom'
import { useTranslate } from 'react-admin'
import { agenda } from '../content/api'
import { formatSaoPaulo } from '../content/time'
import { resourceName, type AdminItem } from '../content/types'

/** Dashboard card: scheduled publications more than two minutes late. */
export function OverdueCard() {
  const translate = useTranslate()
  const [overdue, setOverdue] = useState<AdminItem[] | null>(null)
  useEffect(() => {
    const now = new Date()
    agenda(now, new Date(now.getTime() + 60_000))
      .then((a) => setOverdue(a.overdue))
      .catch(() => setOverdue(null))
  }, [])
  if (!overdue) return null
  return (
    <Card sx={{ flex: '1 1 20rem' }} data-testid="overdue-card">
      <CardContent>
        <Typography color="text.secondary" gutterBottom>
          {translate('vetclube.agenda.overdue_title')}
        </Typography>
        {overdue.length === 0 ? (
          <Typography>{translate('vetclube.agenda.none_overdue')}</Typography>
        ) : (
          overdue.map((i) => (
            <Typography key={i.id} color="error">
              <Link component={RouterLink} to={`/${resourceName(i.type)}/${i.id}`}>
                {i.title}
              </Link>{' '}
              — {formatSaoPaulo(i.publish_at)}
            </Typography>
          ))
        )}
        <Link component={RouterLink} to="/agenda">
          {translate('vetclube.agenda.open')}
        </Link>
      </CardContent>
    </Card>
  )
}
