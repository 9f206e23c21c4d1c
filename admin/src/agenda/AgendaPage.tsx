import { useEffect, useMemo, useState } from 'react'
import { Alert, Box, Button, Card, CardContent, Chip, Link, List, ListItem, ListItemText, ToggleButton, ToggleButtonGroup, Typography } from '@mui/material'
import { Link as RouterLink } from 'react-router-dom'
import { Title, useTranslate } from 'react-admin'
import { agenda, type Agenda } from '../content/api'
import { EDITORIAL_TIME_ZONE, formatSaoPaulo } from '../content/time'
import { resourceName, type AdminItem } from '../content/types'

type Span = 'day' | 'week'

const dayKey = new Intl.DateTimeFormat('en-CA', { timeZone: EDITORIAL_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' })
const dayTitle = new Intl.DateTimeFormat('pt-BR', { timeZone: EDITORIAL_TIME_ZONE, weekday: 'long', day: 'numeric', month: 'long' })

/** Midnight in São Paulo of the day holding instant (São Paulo keeps UTC−3 all year). */
function startOfDay(instant: Date): Date {
  const [y, m, d] = dayKey.format(instant).split('-').map(Number)
  return new Date(Date.UTC(y, m - 1, d, 3))
}

interface Entry {
  item: AdminItem
  at: string
  kind: 'publish' | 'unpublish'
}

/** Groups the agenda's moments by São Paulo day, in time order. */
export function byDay(a: Agenda): [string, Entry[]][] {
  const entries: Entry[] = [
    ...a.publish.filter((i) => i.publish_at).map((item) => ({ item, at: item.publish_at!, kind: 'publish' as const })),
    ...a.unpublish.filter((i) => i.unpublish_at).map((item) => ({ item, at: item.unpublish_at!, kind: 'unpublish' as const })),
  ].sort((x, y) => x.at.localeCompare(y.at))
  const days = new Map<string, Entry[]>()
  for (const e of entries) {
    const key = dayKey.format(new Date(e.at))
    days.set(key, [...(days.get(key) ?? []), e])
  }
  return [...days.entries()]
}

function ItemLink({ item }: { item: AdminItem }) {
  return (
    <Link component={RouterLink} to={`/${resourceName(item.type)}/${item.id}`}>
      {item.title}
    </Link>
  )
}

/** 'Agenda': scheduled publications and unpublications by day or week; overdue ones first. */
/** "sábado, 28 de novembro" → "Sábado, 28 de novembro": only the first letter (a title-case transform would write "De Novembro"). */
export function capitalizeFirst(s: string): string {
  return s.charAt(0).toLocaleUpperCase('pt-BR') + s.slice(1)
}

export default function AgendaPage() {
  const translate = useTranslate()
  const [span, setSpan] = useState<Span>('week')
  const [start, setStart] = useState(() => startOfDay(new Date()))
  const [data, setData] = useState<Agenda | null>(null)
  const [error, setError] = useState('')
  const end = useMemo(() => new Date(start.getTime() + (span === 'day' ? 1 : 7) * 86_400_000), [start, span])

  useEffect(() => {
    setError('')
    agenda(start, end)
      .then(setData)
      .catch((e) => setError(e.message))
  }, [start, end])

  const step = (dir: number) => setStart(new Date(start.getTime() + dir * (span === 'day' ? 1 : 7) * 86_400_000))
  return (
    <Box sx={{ p: 2 }}>
      <Title title={translate('vetclube.agenda.title')} />
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
        <ToggleButtonGroup exclusive size="small" value={span} onChange={(_, v) => v && setSpan(v)} aria-label={translate('vetclube.agenda.span')}>
          <ToggleButton value="day">{translate('vetclube.agenda.day')}</ToggleButton>
          <ToggleButton value="week">{translate('vetclube.agenda.week')}</ToggleButton>
        </ToggleButtonGroup>
        <Button onClick={() => step(-1)}>{translate('vetclube.agenda.previous')}</Button>
        <Button onClick={() => setStart(startOfDay(new Date()))}>{translate('vetclube.agenda.today')}</Button>
        <Button onClick={() => step(1)}>{translate('vetclube.agenda.next')}</Button>
        <Typography variant="body2" color="text.secondary">
          {dayTitle.format(start)} – {dayTitle.format(new Date(end.getTime() - 1))}
        </Typography>
      </Box>
      {error && <Alert severity="error">{error}</Alert>}
      {data && data.overdue.length > 0 && (
        <Alert severity="error" sx={{ mb: 2 }}>
          <Typography fontWeight="bold">{translate('vetclube.agenda.overdue', { smart_count: data.overdue.length })}</Typography>
          {data.overdue.map((i) => (
            <div key={i.id}>
              <ItemLink item={i} /> — {formatSaoPaulo(i.publish_at)}
            </div>
          ))}
        </Alert>
      )}
      {data && byDay(data).length === 0 && <Typography color="text.secondary">{translate('vetclube.agenda.empty')}</Typography>}
      {data &&
        byDay(data).map(([day, entries]) => (
          <Card key={day} variant="outlined" sx={{ mb: 2 }}>
            <CardContent>
              <Typography variant="subtitle1" component="h2">
                {capitalizeFirst(dayTitle.format(new Date(entries[0].at)))}
              </Typography>
              <List dense>
                {entries.map((e) => (
                  <ListItem key={e.kind + e.item.id}>
                    <ListItemText
                      primary={<ItemLink item={e.item} />}
                      secondary={formatSaoPaulo(e.at).split(', ')[1] ?? formatSaoPaulo(e.at)}
                    />
                    <Chip
                      size="small"
                      color={e.kind === 'publish' ? 'success' : 'default'}
                      label={translate(e.kind === 'publish' ? 'vetclube.agenda.publish' : 'vetclube.agenda.unpublish')}
                    />
                  </ListItem>
                ))}
              </List>
            </CardContent>
          </Card>
        ))}
    </Box>
  )
}
